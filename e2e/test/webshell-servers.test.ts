// The servers panel in a real browser: a failed server shows its error and stderr tail, and the
// reconnect button brings it back once the fault is fixed.

import { afterEach, describe, expect, it } from 'vitest'
import { brokenUntilFixed, cleanup, fixture, startDaemon } from '../../daemon/test/harness.js'
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
})
