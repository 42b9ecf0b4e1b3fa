// The servers panel in a real browser: a failed server shows its error and stderr tail, the
// reconnect button brings it back once the fault is fixed, and a workspace server waits for the
// Approve button, which approves the entry exactly as the panel shows it; a remote server that needs
// an OAuth sign-in has a Sign in button that opens the authorization page in a new tab.

import { existsSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  brokenUntilFixed,
  cleanup,
  fixture,
  stdioServerPath,
  tempDir,
} from '../../daemon/test/harness.js'
import { startInProcess } from '../../daemon/test/in-process.js'
import { startOAuthServer } from '../fixtures/oauth-server.js'
import { openPage, useBrowser } from './browser.js'

const browser = useBrowser()
afterEach(cleanup)

describe('the servers panel', () => {
  it('shows a failed server with its error and stderr tail, and reconnects it once fixed', async () => {
    const server = await brokenUntilFixed()
    const daemon = await startInProcess({ mcpServers: { later: { command: server.command } } })
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
    // The status comes with its event; the tools with the list read again right after it.
    await expect.poll(() => page.getByTestId('tool').count()).toBe(6)
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })

  it('follows a crash and the reconnect live, without a reload', async () => {
    // The server's process exits: it runs as one.
    const daemon = await startInProcess(
      { mcpServers: { fragile: fixture([]) } },
      { fixturesInMemory: false },
    )
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
    const daemon = await startInProcess(null, {
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
    expect(await row.getByTestId('approval-command').textContent()).toBe(process.execPath)
    expect(await row.getByTestId('approval-args').textContent()).toBe(
      JSON.stringify([stdioServerPath, '--spawn-log', marker]),
    )
    expect(await row.getByRole('button', { name: 'Reconnect' }).count()).toBe(0)
    expect(existsSync(marker)).toBe(false)

    await row.getByRole('button', { name: 'Approve' }).click()
    await page.locator('[data-testid="server-repo"][data-status="ready"]').waitFor()
    expect(existsSync(marker)).toBe(true)
    expect(await page.getByTestId('summary').textContent()).toBe('Servers 1/1 ready')
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })

  it('does not approve an entry that changed between showing it and the click, and shows it anew', async () => {
    const dir = await tempDir()
    const looked = join(dir, 'looked-at.jsonl')
    const rewritten = join(dir, 'rewritten.jsonl')
    const entry = (marker: string) => ({
      command: process.execPath,
      args: [stdioServerPath, '--spawn-log', marker],
    })
    const daemon = await startInProcess(null, {
      workspaceSettings: { mcpServers: { repo: entry(looked) } },
    })
    await daemon.waitForStatus('repo', 'awaiting_approval')

    const { page, errors } = await openPage(browser())
    await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
    const row = page.getByTestId('server-repo')
    const args = row.getByTestId('approval-args')
    await args.waitFor()
    expect(await args.textContent()).toContain(looked)

    // The repository rewrites its entry while the person reads it.
    await writeFile(
      join(daemon.workspace, '.ferry', 'settings.json'),
      JSON.stringify({ mcpServers: { repo: entry(rewritten) } }),
    )
    await row.getByRole('button', { name: 'Approve' }).click()
    const alert = row.getByRole('alert')
    await alert.waitFor({ timeout: 10_000 })
    expect(await alert.textContent()).toBe(
      'nothing was approved: "repo" changed since it was shown (the entry, or a workspace file it ' +
        'runs); it still waits: run `ferry workspace` to review again',
    )
    await row.getByTestId('approval-args').filter({ hasText: rewritten }).waitFor()
    expect(await row.getAttribute('data-status')).toBe('awaiting_approval')
    expect(existsSync(rewritten)).toBe(false)
    expect(existsSync(looked)).toBe(false)

    await row.getByRole('button', { name: 'Approve' }).click()
    await page.locator('[data-testid="server-repo"][data-status="ready"]').waitFor()
    expect(existsSync(rewritten)).toBe(true)
    expect(existsSync(looked)).toBe(false)
    // The browser reports the refused request itself; nothing else may go wrong.
    const unexpected = errors.filter((message) => !message.includes('status of 409'))
    expect(unexpected, unexpected.join('\n')).toEqual([])
    await page.close()
  })

  it('shows the roots Ferry tells each server of, and none where it declares none', async () => {
    const daemon = await startInProcess({
      mcpServers: { rooted: fixture([], { roots: ['/srv/notes'] }), plain: fixture([]) },
    })
    await daemon.waitForStatus('rooted', 'ready')
    await daemon.waitForStatus('plain', 'ready')
    const { page, errors } = await openPage(browser())
    await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
    const rooted = page.getByTestId('server-rooted')
    await rooted.getByTestId('server-roots').waitFor()
    expect(await rooted.getByTestId('server-roots').textContent()).toBe('Roots: /srv/notes')
    await page.locator('[data-testid="server-plain"][data-status="ready"]').waitFor()
    expect(await page.getByTestId('server-plain').getByTestId('server-roots').count()).toBe(0)
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })

  it('signs in to a server that needs it from its row, in a new tab that the authorization server sends back', async () => {
    const oauth = await startOAuthServer()
    try {
      const daemon = await startInProcess({
        mcpServers: { notes: { httpUrl: oauth.mcpUrl, trust: true } },
      })
      await daemon.waitForStatus('notes', 'needs_login')
      const { page, errors } = await openPage(browser())
      await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
      const row = page.locator('[data-testid="server-notes"][data-status="needs_login"]')
      await row.waitFor()
      expect(await row.getByTestId('server-error').textContent()).toContain('ferry login notes')
      const opened = page.context().waitForEvent('page')
      await row.getByRole('button', { name: 'Sign in to notes' }).click()
      const tab = await opened
      // The authorization server approves at once and sends the tab back to the daemon.
      await tab.getByRole('heading', { name: 'Signed in' }).waitFor()
      expect(new URL(tab.url()).pathname).toBe('/oauth/callback')
      expect(await tab.evaluate(() => window.opener)).toBeNull()
      await page.locator('[data-testid="server-notes"][data-status="ready"]').waitFor()
      expect(await page.getByTestId('summary').textContent()).toBe('Servers 1/1 ready')
      expect(oauth.authorizations).toHaveLength(1)
      expect(errors, errors.join('\n')).toEqual([])
      await tab.close()
      await page.close()
    } finally {
      await oauth.close()
    }
  })
})
