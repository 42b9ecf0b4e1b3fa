// The servers panel in a real browser: a failed server shows its error and stderr tail, the
// reconnect button brings it back once the fault is fixed, and a workspace server waits for the
// Approve button.

import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  brokenUntilFixed,
  cleanup,
  fixture,
  startDaemon,
  stdioServerPath,
  tempDir,
} from '../../daemon/test/harness.js'
import { openPage, useBrowser } from './browser.js'

const browser = useBrowser()
afterEach(cleanup)

describe('the servers panel', () => {
  it('shows a failed server with its error and stderr tail, and reconnects it once fixed', async () => {
    const server = await brokenUntilFixed()
    const daemon = await startDaemon({ mcpServers: { later: { command: server.command } } })
    await daemon.waitForStatus('later', 'failed')

    const { page, errors } = await openPage(browser())
    await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
    const row = page.getByTestId('server-later')
    await row.waitFor()
    expect(await row.getAttribute('data-status')).toBe('failed')
    expect(await row.getByTestId('server-error').textContent()).toContain('exited with code 4')
    await row.getByRole('button', { name: 'Show stderr' }).click()
    await row.getByTestId('stderr').waitFor()
    expect(await row.getByTestId('stderr').textContent()).toContain('missing configuration file')
    expect(await page.getByTestId('summary').textContent()).toBe('Servers 0/1 ready')

    await server.fix()
    await row.getByRole('button', { name: 'Reconnect' }).click()
    await page.locator('[data-testid="server-later"][data-status="ready"]').waitFor()
    expect(await page.getByTestId('summary').textContent()).toBe('Servers 1/1 ready')
    expect(await page.getByTestId('tool').count()).toBe(6)
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })

  it('follows a crash and the reconnect live, without a reload', async () => {
    const daemon = await startDaemon({ mcpServers: { fragile: fixture([]) } })
    await daemon.waitForStatus('fragile', 'ready')
    const { page, errors } = await openPage(browser())
    await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor()
    const crashed = daemon.cli(['call', 'mcp_fragile_crash', '{"code":7}'])
    // The servers panel follows the status changes as they happen (reconnecting takes 0.5 s at
    // least), and the transcript records them.
    await page.locator('[data-testid="server-fragile"]:not([data-status="ready"])').waitFor()
    expect((await crashed).code).not.toBe(0)
    await page.locator('[data-testid="server-fragile"][data-status="ready"]').waitFor()
    await page.getByTestId('status-line').filter({ hasText: 'fragile' }).first().waitFor()
    await page.locator('[data-testid="call-card"][data-state="failed"]').waitFor()
    expect(await daemon.servers()).toMatchObject([{ name: 'fragile', restartCount: 1 }])
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })

  it('shows a workspace server waiting for approval, and starts it on Approve', async () => {
    const marker = join(await tempDir(), 'spawned.jsonl')
    const daemon = await startDaemon(null, {
      workspaceSettings: {
        mcpServers: {
          repo: { command: process.execPath, args: [stdioServerPath, '--spawn-log', marker] },
        },
      },
    })
    const waiting = await daemon.waitForStatus('repo', 'awaiting_approval')

    const { page, errors } = await openPage(browser())
    await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
    const row = page.locator('[data-testid="server-repo"][data-status="awaiting_approval"]')
    await row.waitFor()
    expect(await row.getByTestId('server-error').textContent()).toBe(waiting.error)
    expect(await row.getByRole('button', { name: 'Reconnect' }).count()).toBe(0)
    expect(existsSync(marker)).toBe(false)

    await row.getByRole('button', { name: 'Approve' }).click()
    await page.locator('[data-testid="server-repo"][data-status="ready"]').waitFor()
    expect(existsSync(marker)).toBe(true)
    expect(await page.getByTestId('summary').textContent()).toBe('Servers 1/1 ready')
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })
})
