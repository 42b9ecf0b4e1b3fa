// Apps that attack the WebShell itself, in a real browser: one floods the tab with messages while
// a confirmation waits to be seen, one tries to send data out through WebRTC from its own document
// and from every kind of frame it can make, one tries to replace the clipboard on a click, one
// would load its scripts from this machine.

import { afterEach, describe, expect, it } from 'vitest'
import { CLIPBOARD_DATA, LOCAL_RESOURCE_DOMAIN } from '../fixtures/app-hostile-html.js'
import { appProbeServerPath } from '../fixtures/paths.js'
import { startTurnListener, type TurnListener } from '../fixtures/turn-listener.js'
import { cleanup, fixture, waitFor, type Daemon } from '../../daemon/test/harness.js'
import { startInProcess } from '../../daemon/test/in-process.js'
import { openPage, useBrowser } from './browser.js'
import { appIn, FLOOD_CLOSED } from './app-frames.js'

const browser = useBrowser()
const listeners: TurnListener[] = []
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((listener) => listener.close()))
  await cleanup()
})

const probeServer = { command: process.execPath, args: [appProbeServerPath], trust: true }

async function openWebShell(daemon: Daemon) {
  const opened = await openPage(browser())
  await opened.page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
  await opened.page.locator('[data-testid="connection"][data-state="live"]').waitFor()
  return opened
}

describe('hostile MCP Apps in the WebShell', () => {
  it('closes an App that floods the tab, says why, and keeps the tab answering', async () => {
    const daemon = await startInProcess({
      mcpServers: { probe: probeServer, fx: fixture([], { trust: false }) },
    })
    await daemon.waitForStatus('probe', 'ready')
    await daemon.waitForStatus('fx', 'ready')
    const { page, errors } = await openWebShell(daemon)

    expect((await daemon.cli(['call', 'mcp_probe_flood_app', '{}'])).code).toBe(0)
    // The flood starts as the App gets its result; a confirmation raised then must reach the
    // person at once (an unguarded tab showed it after about 100 s).
    await page.getByTestId('call-card').waitFor()
    const started = Date.now()
    const terminal = daemon.cli(['call', 'mcp_fx_slow', '{"steps":1,"delayMs":10}', '--json'])
    const ask = page.getByTestId('confirmation')
    await ask.waitFor({ timeout: 150_000 })
    const shownAfter = Date.now() - started
    expect(shownAfter).toBeLessThan(5000)
    await ask.getByRole('button', { name: 'Allow once' }).click()
    expect((await terminal).code).toBe(0)

    const stopped = page.getByTestId('app-stopped')
    await stopped.waitFor()
    expect(await stopped.locator('.app-note').textContent()).toMatch(FLOOD_CLOSED)
    expect(await stopped.getByTestId('result').textContent()).toContain('flood_app ran')
    expect(await page.locator('[data-testid="app-frame"]').count()).toBe(0)
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  }, 200_000)

  it('lets no WebRTC out of an App, its frames, or frames in its shadow roots', async () => {
    const turn = await startTurnListener()
    listeners.push(turn)
    const daemon = await startInProcess({ mcpServers: { probe: probeServer } })
    await daemon.waitForStatus('probe', 'ready')
    const { page, errors } = await openWebShell(daemon)
    const ports = JSON.stringify({ udp: turn.udp, tcp: turn.tcp })
    expect((await daemon.cli(['call', 'mcp_probe_webrtc_app', ports])).code).toBe(0)
    const app = appIn(page, 0)
    // The App reports once every attempt has had the TURN server's answer or can never run.
    await app.locator('body[data-done="true"]').waitFor({ timeout: 30_000 })
    const report = JSON.parse((await app.locator('#report').textContent()) ?? '{}') as unknown

    // The barrier: the same attempt from outside the sandbox reaches the listener on both
    // transports, after everything the App did.
    await page.evaluate(
      ({ udp, tcp }) => {
        const control = new RTCPeerConnection({
          iceServers: [
            {
              urls: [`turn:127.0.0.1:${udp}?transport=udp`, `turn:127.0.0.1:${tcp}?transport=tcp`],
              username: 'control',
              credential: 'x',
            },
          ],
        })
        control.createDataChannel('data')
        void control.createOffer().then((offer) => control.setLocalDescription(offer))
      },
      { udp: turn.udp, tcp: turn.tcp },
    )
    await waitFor(
      () =>
        ['udp', 'tcp'].every((transport) =>
          turn.usernames.some((got) => got.transport === transport && got.username === 'control'),
        ) || undefined,
      15_000,
      'the control attempt on both transports',
    )
    expect(turn.usernames.filter((got) => got.username !== 'control')).toEqual([])
    expect(report).toEqual({
      self: 'threw ReferenceError',
      element: 'removed',
      innerHTML: 'removed',
      closedShadow: 'removed',
      declarativeShadow: 'no setHTMLUnsafe',
      written: 'inert template',
      declared: 'inert template',
    })
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })

  it('shows no App whose resources would load from this machine, and says why', async () => {
    const daemon = await startInProcess({ mcpServers: { probe: probeServer } })
    await daemon.waitForStatus('probe', 'ready')
    const { page, errors } = await openWebShell(daemon)
    const reason = `App not shown: resource CSP is refused: csp.resourceDomains entry "${LOCAL_RESOURCE_DOMAIN}" points at a loopback, private, local-network or special-use host, which an App may not reach`

    expect((await daemon.cli(['call', 'mcp_probe_local_resources_app', '{}'])).code).toBe(0)
    // The only call: its card shows the App, or why not beside the result.
    const card = page.getByTestId('call-card')
    await card.locator('[data-testid="app-not-shown"], [data-testid="app-frame"]').first().waitFor()
    expect(await card.getByTestId('app-not-shown').allTextContents()).toEqual([reason])
    expect(await page.locator('[data-testid="app-frame"]').count()).toBe(0)
    expect(await card.getByTestId('result').textContent()).toContain('local_resources_app ran')
    // The tools list says the same, from the check the call made.
    const listed = page.locator('[data-testid="tool"][data-tool="mcp_probe_local_resources_app"]')
    await expect.poll(() => listed.getByTestId('tool-app').getAttribute('title')).toBe(reason)
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })

  it('lets an App write the clipboard only if it declared so and the person allowed it', async () => {
    const daemon = await startInProcess({ mcpServers: { probe: probeServer } })
    await daemon.waitForStatus('probe', 'ready')
    const { page, errors } = await openWebShell(daemon)
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: daemon.info.url.replace(/\/$/, ''),
    })
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText())
    /** A real click on the App's button with the clipboard seeded; what the App saw and what the clipboard holds. */
    const clickCopy = async (nth: number, seed: string) => {
      await page.evaluate((seed) => navigator.clipboard.writeText(seed), seed)
      const app = appIn(page, nth)
      await app.locator('#copy').click()
      await app.locator('body[data-done="true"]').waitFor()
      const report = JSON.parse((await app.locator('#report').textContent()) ?? '{}') as unknown
      return { report, clipboard: await clipboard() }
    }

    // Not declared: no question, and neither a copy command nor the Clipboard API gets through.
    expect((await daemon.cli(['call', 'mcp_probe_clipboard_app', '{}'])).code).toBe(0)
    expect(await clickCopy(0, 'seed one')).toEqual({
      report: { execCommand: 'false', writeText: 'refused NotAllowedError' },
      clipboard: 'seed one',
    })
    // The person's own copy of the text the App selected copies just that.
    await page.keyboard.press('Control+C')
    await waitFor(async () => (await clipboard()) !== 'seed one' || undefined)
    expect(await clipboard()).toBe(CLIPBOARD_DATA)

    // Declared, and the person says no.
    expect((await daemon.cli(['call', 'mcp_probe_clipboard_declared_app', '{}'])).code).toBe(0)
    const denied = page.getByTestId('app-permission')
    await denied.waitFor()
    expect(await denied.locator('.app-note').textContent()).toBe(
      'This App asks to write to your clipboard.',
    )
    expect(await page.locator('[data-testid="app-frame"]').count()).toBe(1)
    await denied.getByRole('button', { name: 'Deny' }).click()
    expect(await clickCopy(1, 'seed two')).toEqual({
      report: { execCommand: 'false', writeText: 'refused NotAllowedError' },
      clipboard: 'seed two',
    })

    // Declared and allowed: the same click writes, which shows the checks above can see a write.
    expect((await daemon.cli(['call', 'mcp_probe_clipboard_declared_app', '{}'])).code).toBe(0)
    await page.getByTestId('app-permission').getByRole('button', { name: 'Allow' }).click()
    expect(await clickCopy(2, 'seed three')).toEqual({
      report: { execCommand: 'true', writeText: 'written' },
      clipboard: CLIPBOARD_DATA,
    })
    // The refused Clipboard API calls are the browser's only complaints.
    expect(
      errors.filter((message) => !/Permissions policy violation: The Clipboard API/.test(message)),
      errors.join('\n'),
    ).toEqual([])
    await page.close()
  })
})
