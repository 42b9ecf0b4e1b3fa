// MCP Apps in the WebShell, in a real browser: the demo dashboard drawn inside the transcript for a
// call from the tab and for one from a terminal; an App that tries to reach out of its sandbox and
// fails at every turn; compacted history shown as text; and the teardown sent before a frame goes.

import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { appProbeServerPath } from '../fixtures/paths.js'
import { cleanup, waitFor } from '../../daemon/test/harness.js'
import { startInProcess } from '../../daemon/test/in-process.js'
import { openPage, useBrowser } from './browser.js'
import { appIn, createSession, frameRemovals, recordFrameRemovals } from './app-frames.js'

const browser = useBrowser()
afterEach(cleanup)

const probeServer = { command: process.execPath, args: [appProbeServerPath], trust: true }

async function live(page: Page): Promise<void> {
  await page.locator('[data-testid="connection"][data-state="live"]').waitFor()
}

async function callFromTab(page: Page, tool: string): Promise<void> {
  const item = page.locator(`[data-tool="${tool}"]`)
  await item.locator('.tool-toggle').click()
  await item.getByRole('button', { name: 'Call' }).click()
}

describe('MCP Apps in the WebShell', () => {
  it('draws the demo dashboard for a call from the tab and for one from a terminal', async () => {
    const daemon = await startInProcess(null)
    await daemon.waitForStatus('demo', 'ready')
    const { page, errors } = await openPage(browser())
    await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
    await live(page)

    await callFromTab(page, 'mcp_demo_show_revenue_dashboard')
    const fromTab = appIn(page, 0)
    await expect
      .poll(() => fromTab.getByTestId('total').textContent(), { timeout: 15_000 })
      .toBe('$1,558,000')
    expect(await fromTab.locator('.row').count()).toBe(3)
    // The App follows the WebShell's theme through the host context.
    await page.emulateMedia({ colorScheme: 'dark' })
    await expect.poll(() => fromTab.locator('body').getAttribute('class')).toBe('dark')
    await page.emulateMedia({ colorScheme: 'light' })
    await expect.poll(() => fromTab.locator('body').getAttribute('class')).toBe('light')

    const terminal = await daemon.cli([
      'call',
      'mcp_demo_show_revenue_dashboard',
      '{"quarter":"Q1","region":"emea"}',
    ])
    expect(terminal.code, terminal.stderr).toBe(0)
    expect(terminal.stdout).toContain('Revenue Q1 2026 (emea)')
    expect(terminal.stdout).not.toContain('<script')
    const fromTerminal = appIn(page, 1)
    await expect
      .poll(() => fromTerminal.getByTestId('total').textContent(), { timeout: 15_000 })
      .toBe('$417,450')
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })

  it('keeps an App from the page, its storage, the daemon and privileged requests', async () => {
    const daemon = await startInProcess({ mcpServers: { probe: probeServer } })
    await daemon.waitForStatus('probe', 'ready')
    const { page, errors } = await openPage(browser())
    await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
    await live(page)
    await callFromTab(page, 'mcp_probe_probe_isolation')
    const app = appIn(page, 0)
    // Its link is put to the person, with the full address, and declined.
    const prompt = page.getByTestId('app-prompt')
    await prompt.waitFor({ timeout: 15_000 })
    expect(await prompt.getByTestId('app-link-url').textContent()).toBe('https://example.com/')
    await prompt.getByTestId('app-link-decline').click()
    await app.locator('body[data-done="true"]').waitFor({ timeout: 15_000 })
    const report = JSON.parse((await app.locator('#report').textContent()) ?? '{}') as Record<
      string,
      string
    >
    expect(report.parentDocument).toMatch(/^blocked/)
    expect(report.topLocation).toMatch(/^blocked/)
    expect(report.cookie).toMatch(/^blocked/)
    expect(report.localStorage).toMatch(/^blocked/)
    expect(report.sessionStorage).toMatch(/^blocked/)
    expect(report.fetchApi).toMatch(/^blocked/)
    expect(report.fetchSandbox).toMatch(/^blocked/)
    // Privileged requests go through the person and the daemon: the declined link is answered
    // no, and a tool its own server does not have is refused.
    expect(report.openLink).toBe('answered')
    expect(report.callTool).toBe('error -32603')
    // The blocked fetches are reported by the browser as CSP violations; nothing else went wrong.
    expect(
      errors.filter((message) => !/Content Security Policy|Failed to fetch/.test(message)),
      errors.join('\n'),
    ).toEqual([])
    await page.close()
  })

  it('shows the text result and why when the sandbox does not load', async () => {
    const daemon = await startInProcess(null)
    await daemon.waitForStatus('demo', 'ready')
    const { page, errors } = await openPage(browser())
    // The proxy never answers: the card must not wait forever or show an empty frame.
    await page.route('**/sandbox-proxy*', (route) => route.abort())
    await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
    await live(page)
    await callFromTab(page, 'mcp_demo_show_revenue_dashboard')
    const fallback = page.getByTestId('app-fallback')
    await fallback.waitFor({ timeout: 15_000 })
    expect(await fallback.textContent()).toContain('the sandbox page failed to load')
    expect(await fallback.getByTestId('result').textContent()).toContain('Revenue Q3 2026 (all)')
    expect(await page.locator('[data-testid="app-frame"]').count()).toBe(0)
    // The aborted request is the browser's only complaint.
    expect(
      errors.filter((message) => !/ERR_FAILED|sandbox-proxy/.test(message)),
      errors.join('\n'),
    ).toEqual([])
    await page.close()
  })

  it('shows compacted App results as text, with no frame', async () => {
    const daemon = await startInProcess(null)
    await daemon.waitForStatus('demo', 'ready')
    expect((await daemon.cli(['call', 'mcp_demo_show_revenue_dashboard', '{}'])).code).toBe(0)
    const status = (await (await daemon.api('/status')).json()) as { defaultSession: string }
    expect((await daemon.cli(['sessions', 'compact', status.defaultSession])).code).toBe(0)

    const { page, errors } = await openPage(browser())
    await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
    await live(page)
    const compacted = page.getByTestId('app-compacted')
    await compacted.waitFor()
    expect(await compacted.textContent()).toContain('Revenue Q3 2026 (all)')
    expect(await page.locator('[data-testid="app-frame"]').count()).toBe(0)
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })

  it('tells an App before its frame goes, and does not wait long for a silent one', async () => {
    const daemon = await startInProcess({ mcpServers: { probe: probeServer } })
    await daemon.waitForStatus('probe', 'ready')
    const { page, errors } = await openPage(browser())
    // Records, in the WebShell page, when the App's teardown notice arrives and when frames go.
    await page.addInitScript(() => {
      const record = window as unknown as { heard?: number }
      window.addEventListener('message', (event: MessageEvent) => {
        const data = event.data as { params?: { data?: unknown } } | null
        if (data?.params?.data === 'teardown received') record.heard = performance.now()
      })
    })
    await recordFrameRemovals(page)
    await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
    await live(page)
    await callFromTab(page, 'mcp_probe_polite_app')
    await appIn(page, 0).getByText('polite').waitFor()

    await createSession(page, 'elsewhere')
    const polite = {
      heard: await page.evaluate(() => (window as unknown as { heard?: number }).heard),
      removed: await frameRemovals(page),
    }
    expect(polite.heard).toBeDefined()
    expect(polite.removed.length).toBeGreaterThan(0)
    expect(polite.heard as number).toBeLessThan(polite.removed[0] as number)

    // A silent App holds the switch up for the teardown bound (1 s), no longer.
    await page.goBack()
    await live(page)
    await callFromTab(page, 'mcp_probe_silent_app')
    await appIn(page, 0).getByText('silent').waitFor()
    const started = Date.now()
    await page.goForward()
    await page.getByText('No events in this session yet').waitFor()
    const took = Date.now() - started
    expect(took).toBeLessThan(4000)
    await waitFor(
      async () => (await page.locator('[data-testid="app-frame"]').count()) === 0 || undefined,
    )
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })
})
