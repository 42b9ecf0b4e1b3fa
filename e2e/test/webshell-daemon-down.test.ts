// The tab while Ferry is away, in a real browser: within 2 s of the daemon dying, its servers and
// running calls stop claiming `ready` and `running`; once it is back, a call that ended meanwhile
// shows how it ended (from the resumed transcript) and the servers are read again.

import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, fixture, startDaemon } from '../../daemon/test/harness.js'
import { errorsBesidesDaemonAway, openPage, useBrowser } from './browser.js'

const browser = useBrowser()
afterEach(cleanup)

/** The acceptance bound: from the daemon going away to the tab saying so. */
const SAYS_SO_MS = 2000

describe('the tab while Ferry is down', () => {
  it('stops calling servers ready and calls running within 2 s, and shows how calls ended once back', async () => {
    const settings = { mcpServers: { fx: fixture([]) } }
    const first = await startDaemon(settings)
    await first.waitForStatus('fx', 'ready')
    const { page, errors } = await openPage(browser())
    await page.goto(`${first.info.url}#token=${first.info.token}`)
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor()

    // A call that runs for a minute, shown with its progress.
    const long = first.cli(['call', 'mcp_fx_slow', '{"steps":300,"delayMs":200}'])
    const card = page.locator('[data-testid="call-card"][data-state="running"]')
    await card.getByTestId('progress-text').waitFor()
    const server = page.getByTestId('server-fx')
    expect(await server.getByTestId('server-status').textContent()).toBe('ready')
    expect(await card.getByTestId('call-state').textContent()).toBe('running')

    // The daemon dies without a word: no goodbye on the socket, no events written.
    first.process.kill('SIGKILL')
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="server-fx"][data-stale="true"]') !== null &&
        document.querySelector('[data-testid="call-card"][data-stale="true"]') !== null,
      undefined,
      { timeout: SAYS_SO_MS },
    )
    expect(await server.getByTestId('server-status').textContent()).toBe('unknown')
    expect(await server.getByTestId('server-stale').textContent()).toBe(
      'Ferry is not answering; last known ready.',
    )
    expect(await card.getByTestId('call-state').textContent()).toBe(
      'unknown (Ferry is not answering)',
    )
    expect(await page.getByTestId('summary').textContent()).toBe('Servers: Ferry is not answering')
    expect(await card.getByRole('button', { name: 'Cancel' }).isDisabled()).toBe(true)
    expect((await long).code).not.toBe(0)

    // Back: the stored transcript says the call was interrupted, and the servers are read again.
    const second = await startDaemon(settings, { stateDir: first.stateDir })
    await second.waitForStatus('fx', 'ready')
    const interrupted = page.locator('[data-testid="call-card"][data-state="interrupted"]')
    await interrupted.waitFor({ timeout: 15_000 })
    expect(await interrupted.getAttribute('data-stale')).toBeNull()
    expect(await interrupted.getByTestId('call-state').textContent()).toBe('interrupted')
    expect(await interrupted.getByTestId('interrupted').textContent()).toContain('Ferry stopped')
    await page.locator('[data-testid="server-fx"]:not([data-stale])').waitFor()
    // The resumed transcript replays the restart's statuses in order (connecting, then ready), so
    // the tab may pass through `connecting` first: what it must reach is the server ready.
    await server
      .getByTestId('server-status')
      .filter({ hasText: /^ready$/ })
      .waitFor()
    expect(await server.getByTestId('server-status').textContent()).toBe('ready')
    expect(await page.getByTestId('summary').textContent()).toBe('Servers 1/1 ready')

    expect(errorsBesidesDaemonAway(errors), errors.join('\n')).toEqual([])
    await page.close()
  })
})
