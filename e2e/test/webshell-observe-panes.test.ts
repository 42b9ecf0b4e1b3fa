// The WebShell's Logs and Protocol panes, in a real browser against the fixture server: MCP log
// messages and stderr as they come, the level set from the pane changing what arrives, and a
// call's request and response paired in the protocol trace with its latency.

import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, fixture, type Daemon } from '../../daemon/test/harness.js'
import { startInProcess } from '../../daemon/test/in-process.js'
import { openPage, useBrowser } from './browser.js'

const browser = useBrowser()
afterEach(cleanup)

async function openShell(
  flags: string[],
): Promise<{ daemon: Daemon; page: Page; errors: string[] }> {
  const daemon = await startInProcess({ mcpServers: { fx: fixture(flags) } })
  await daemon.waitForStatus('fx', 'ready')
  const { page, errors } = await openPage(browser())
  // Under the test's own limit, so a wait that fails names what it waited for.
  page.setDefaultTimeout(15_000)
  await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
  await page.locator('[data-testid="connection"][data-state="live"]').waitFor()
  return { daemon, page, errors }
}

async function openPane(page: Page, server: string, pane: string): Promise<void> {
  await page
    .getByTestId(`server-${server}`)
    .getByRole('button', { name: server, exact: true })
    .click()
  await page.getByTestId(`tab-${pane}`).click()
  await page.getByTestId(`${pane}-pane`).waitFor()
}

async function call(daemon: Daemon, tool: string, args: Record<string, unknown>) {
  const response = await daemon.api('/call', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tool, arguments: args }),
  })
  expect(response.status).toBe(200)
  return (await response.json()) as { id: string }
}

describe('the Logs pane', () => {
  it('shows stderr and log messages as they come, at the level chosen in the pane', async () => {
    const { daemon, page, errors } = await openShell([
      '--log-tool',
      '--stderr',
      'fixture says hello',
    ])
    await openPane(page, 'fx', 'logs')
    const lines = page.getByTestId('log-lines')
    await lines.locator('[data-source="stderr"]', { hasText: 'fixture says hello' }).waitFor()

    const levelsOf = async (text: string) =>
      lines
        .locator('[data-source="mcp"]', { hasText: text })
        .evaluateAll((items) => items.map((item) => item.getAttribute('data-level')))
    const level = page.getByTestId('log-level')
    await level.selectOption('debug')
    await page.locator('[data-testid="log-level"][data-level="debug"]').waitFor()
    await call(daemon, 'mcp_fx_emit_logs', { text: 'first round' })
    // The last message sent is the barrier: every earlier one came before it.
    await lines.locator('[data-level="emergency"]', { hasText: 'first round' }).waitFor()
    expect(await levelsOf('first round')).toEqual([
      'debug',
      'info',
      'notice',
      'warning',
      'error',
      'critical',
      'alert',
      'emergency',
    ])

    await level.selectOption('error')
    await page.locator('[data-testid="log-level"][data-level="error"]').waitFor()
    await call(daemon, 'mcp_fx_emit_logs', { text: 'second round' })
    await lines.locator('[data-level="emergency"]', { hasText: 'second round' }).waitFor()
    expect(await levelsOf('second round')).toEqual(['error', 'critical', 'alert', 'emergency'])
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })
})

describe('the Protocol pane', () => {
  it('shows a call’s request and response, paired, with its latency, as it happens', async () => {
    const { daemon, page, errors } = await openShell([])
    await openPane(page, 'fx', 'protocol')
    await page.getByTestId('trace').waitFor()
    await call(daemon, 'mcp_fx_echo', { text: 'traced words' })
    const row = page.locator('[data-testid="trace-row"][data-method="tools/call"]')
    await row.getByTestId('latency').waitFor()
    expect(await row.count()).toBe(1)
    expect(await row.getByTestId('latency').textContent()).toMatch(/^\d[\d,]*(\.\d)? ms$/)
    await row.locator('summary').click()
    expect(await row.getByTestId('trace-request').textContent()).toContain('traced words')
    const response = await row.getByTestId('trace-response').textContent()
    expect(response).toContain('"result"')
    expect(response).toContain('traced words')
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })
})
