// Apps from a server that does not declare the MCP Apps extension, in a real browser: the host
// fixture's App drawn in the WebShell transcript for a call from a terminal, whether the tool
// names it through `_meta.ui.resourceUri` or the flat key, and the reason, in the tools list and
// beside the plain result, when a tool names an App that cannot be shown.

import { afterEach, describe, expect, it } from 'vitest'
import { appHostServerPath } from '../fixtures/paths.js'
import { cleanup } from '../../daemon/test/harness.js'
import { startInProcess } from '../../daemon/test/in-process.js'
import { openPage, useBrowser } from './browser.js'
import { appIn } from './app-frames.js'

const browser = useBrowser()
afterEach(cleanup)

const hostServer = { command: process.execPath, args: [appHostServerPath] }

describe('Apps from servers that do not declare the extension', () => {
  it('draws the App for a call from a terminal, named through either key', async () => {
    const daemon = await startInProcess({ mcpServers: { host: hostServer } })
    await daemon.waitForStatus('host', 'ready')
    const { page, errors } = await openPage(browser())
    await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor()

    const nested = await daemon.cli(['call', 'mcp_host_host_app', '{"label":"nested"}'])
    expect(nested.code, nested.stderr).toBe(0)
    expect(nested.stdout).toContain('host app ready: nested')
    const first = appIn(page, 0)
    await first.locator('#status', { hasText: 'ready' }).waitFor({ timeout: 20_000 })
    expect(await first.locator('#result').textContent()).toBe('host app ready: nested')

    const flat = await daemon.cli(['call', 'mcp_host_flat_app', '{"label":"flat"}'])
    expect(flat.code, flat.stderr).toBe(0)
    const second = appIn(page, 1)
    await second.locator('#status', { hasText: 'ready' }).waitFor({ timeout: 20_000 })
    expect(await second.locator('#result').textContent()).toBe('host app ready: flat')
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })

  it('shows why a named App cannot be shown beside the plain result', async () => {
    const daemon = await startInProcess({ mcpServers: { host: hostServer } })
    await daemon.waitForStatus('host', 'ready')
    const { page, errors } = await openPage(browser())
    await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor()
    // The tools list says so before any call, and marks the tools whose App is shown.
    const listed = page.locator('[data-testid="tool"][data-tool="mcp_host_broken_app"]')
    const reason = 'App not shown: the server has no resource ui://host/missing'
    await listed.locator(`[data-testid="tool-app"][title="${reason}"]`).waitFor({ timeout: 10_000 })
    expect(await listed.getByTestId('tool-app').textContent()).toBe('App not shown')
    await listed.getByRole('button', { name: 'broken_app' }).click()
    expect(await listed.getByTestId('tool-app-not-shown').textContent()).toBe(
      `${reason}; its results are shown as text.`,
    )
    const shown = page.locator('[data-testid="tool"][data-tool="mcp_host_host_app"]')
    expect(await shown.getByTestId('tool-app').textContent()).toBe('App')

    const broken = await daemon.cli(['call', 'mcp_host_broken_app'])
    expect(broken.code, broken.stderr).toBe(0)
    expect(broken.stdout).toContain('broken app result')
    const card = page.getByTestId('call-card').filter({ hasText: 'broken app result' })
    await card.waitFor({ timeout: 20_000 })
    // The reason comes with the result in one event: it is there as soon as the result is.
    expect(await card.getByTestId('app-not-shown').allTextContents()).toEqual([
      'App not shown: the server has no resource ui://host/missing',
    ])
    expect(await card.getByTestId('result').textContent()).toContain('broken app result')
    expect(await page.locator('[data-testid="app-frame"]').count()).toBe(0)
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })
})
