// How Apps start in the WebShell, in a real browser: in a sandbox frame readied before their
// result arrived and moved into the card with its document intact, each frame holding one App
// only; an App that declares domains in a frame loaded with its own policy; the teardown and the
// message budget holding for a readied frame; a failed readied frame passed over, and a failed
// proxy page loaded once more; and every App starting in a new frame without `moveBefore`.

import type { Frame, Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { DECLARED_DOMAIN, UNDECLARED_DOMAIN } from '../fixtures/app-start-html.js'
import { appProbeServerPath } from '../fixtures/paths.js'
import { cleanup, type Daemon } from '../../daemon/test/harness.js'
import { startInProcess } from '../../daemon/test/in-process.js'
import { openPage, useBrowser } from './browser.js'
import {
  appIn,
  createSession,
  FLOOD_CLOSED,
  frameRemovals,
  recordFrameRemovals,
} from './app-frames.js'

const browser = useBrowser()
afterEach(cleanup)

const probeServer = { command: process.execPath, args: [appProbeServerPath], trust: true }
const WARM = '[data-testid="sandbox-frames"] iframe'

async function openWebShell(
  daemon: Daemon,
  options: { withoutMove?: boolean; refuseFirstProxy?: boolean } = {},
) {
  await daemon.waitForStatus('probe', 'ready')
  const opened = await openPage(browser())
  // When the App's teardown notice reaches the page, and when an App's frame leaves the document
  // (a frame moved into a card stays in it).
  await opened.page.addInitScript(() => {
    const record = window as unknown as { heard?: number }
    window.addEventListener('message', (event: MessageEvent) => {
      const data = event.data as { params?: { data?: unknown } } | null
      if (data?.params?.data === 'teardown received') record.heard ??= performance.now()
    })
  })
  await recordFrameRemovals(opened.page)
  // Which frames the page itself saw load a page (a child frame's own load state can come first).
  await opened.page.addInitScript(() => {
    const record = window as unknown as { framesLoaded: WeakSet<EventTarget> }
    record.framesLoaded = new WeakSet()
    document.addEventListener(
      'load',
      (event) => {
        // Not the about:blank a frame holds before it is pointed anywhere.
        const frame = event.target
        if (frame instanceof HTMLIFrameElement && frame.src !== '') record.framesLoaded.add(frame)
      },
      true,
    )
  })
  if (options.withoutMove === true) {
    await opened.page.addInitScript(() => {
      delete (Element.prototype as { moveBefore?: unknown }).moveBefore
    })
  }
  if (options.refuseFirstProxy === true) {
    // The first proxy the page asks for, the readied one, never arrives.
    let refused = false
    await opened.page.route('**/sandbox-proxy*', (route) => {
      if (refused) return route.continue()
      refused = true
      return route.abort()
    })
  }
  await opened.page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
  await opened.page.locator('[data-testid="connection"][data-state="live"]').waitFor()
  return opened
}

/** The readied frame once its proxy has loaded, marked so the page can recognise it later. */
async function warmFrame(page: Page, mark: string): Promise<Frame> {
  const handle = await page.locator(WARM).elementHandle({ timeout: 15_000 })
  const frame = await handle?.contentFrame()
  if (handle == null || frame == null) throw new Error('no readied sandbox frame')
  await frame.waitForLoadState('load')
  await handle.evaluate((iframe, name) => {
    const marks = window as unknown as Record<string, unknown>
    marks[name] = iframe
    marks[`${name}Window`] = (iframe as HTMLIFrameElement).contentWindow
  }, mark)
  return frame
}

async function call(daemon: Daemon, tool: string): Promise<void> {
  const result = await daemon.cli(['call', tool, '{}'])
  expect(result.code, result.stderr).toBe(0)
}

describe('App start in the WebShell', () => {
  it('starts an App in the frame readied before it, once, and tells it before its frame goes', async () => {
    const daemon = await startInProcess({ mcpServers: { probe: probeServer } })
    const { page, errors } = await openWebShell(daemon)

    const first = await warmFrame(page, 'firstWarm')
    const firstDocument = await first.evaluate(() => performance.timeOrigin)
    expect(firstDocument).toBeLessThan(await page.evaluate(() => Date.now()))
    await call(daemon, 'mcp_probe_polite_app')
    await appIn(page, 0).getByText('polite').waitFor({ timeout: 15_000 })
    // The App is in the readied element, with the same window and the same proxy document.
    expect(
      await page.evaluate(() => {
        const marks = window as unknown as { firstWarm: Element; firstWarmWindow: Window }
        const frame = document.querySelector('[data-testid="app-frame"]') as HTMLIFrameElement
        return {
          element: frame === marks.firstWarm,
          window: frame.contentWindow === marks.firstWarmWindow,
          inCard: frame.closest('[data-testid="app-container"]') !== null,
        }
      }),
    ).toEqual({ element: true, window: true, inCard: true })
    expect(await first.evaluate(() => performance.timeOrigin)).toBe(firstDocument)

    // Another frame is readied for the next App; the used one is never handed out again.
    await warmFrame(page, 'secondWarm')
    await call(daemon, 'mcp_probe_polite_app')
    await appIn(page, 1).getByText('polite').waitFor({ timeout: 15_000 })
    expect(
      await page.evaluate(() => {
        const marks = window as unknown as { firstWarm: Element; secondWarm: Element }
        const frames = [...document.querySelectorAll('[data-testid="app-frame"]')]
        return frames.map((frame) =>
          frame === marks.firstWarm ? 'first' : frame === marks.secondWarm ? 'second' : 'other',
        )
      }),
    ).toEqual(['first', 'second'])

    // Leaving the session tells the Apps first; only then do their frames go.
    await createSession(page, 'elsewhere')
    const polite = {
      heard: await page.evaluate(() => (window as unknown as { heard?: number }).heard),
      removed: await frameRemovals(page),
    }
    expect(polite.heard).toBeDefined()
    expect(polite.removed.length).toBeGreaterThanOrEqual(2)
    expect(polite.heard as number).toBeLessThan(polite.removed[0] as number)
    expect(await page.locator('[data-testid="app-frame"]').count()).toBe(0)
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })

  it('gives an App that declares domains a frame loaded with its own policy, not the readied one', async () => {
    const daemon = await startInProcess({ mcpServers: { probe: probeServer } })
    const policies: string[] = []
    const { page, errors } = await openWebShell(daemon)
    page.on('response', (response) => {
      if (new URL(response.url()).pathname !== '/sandbox-proxy') return
      policies.push(`${response.url()} ${response.headers()['content-security-policy'] ?? ''}`)
    })
    await warmFrame(page, 'warm')

    await call(daemon, 'mcp_probe_csp_declared_app')
    const app = appIn(page, 0)
    await app.locator('body[data-done="true"]').waitFor({ timeout: 15_000 })
    // Under its own policy the declared domain may be reached and the other may not; under the
    // readied frame's policy (no domains) both would be refused.
    expect(JSON.parse((await app.locator('#report').textContent()) ?? '')).toEqual([
      UNDECLARED_DOMAIN,
    ])
    const frame = await page.evaluate(() => {
      const marks = window as unknown as { warm: Element }
      const element = document.querySelector('[data-testid="app-frame"]') as HTMLIFrameElement
      return { readied: element === marks.warm, src: element.src }
    })
    expect(frame.readied).toBe(false)
    expect(new URL(frame.src).searchParams.get('csp')).toBe(
      JSON.stringify({ connectDomains: [DECLARED_DOMAIN] }),
    )
    const own = policies.find((entry) => entry.startsWith(frame.src))
    expect(own).toContain(`connect-src ${DECLARED_DOMAIN};`)
    // The declared domain does not resolve in this closed network; nothing else went wrong.
    expect(
      errors.filter(
        (message) => !/Content Security Policy|ERR_NAME_NOT_RESOLVED|Failed to load/.test(message),
      ),
      errors.join('\n'),
    ).toEqual([])
    await page.close()
  })

  it('closes a flooding App started in a readied frame, and says why', async () => {
    const daemon = await startInProcess({ mcpServers: { probe: probeServer } })
    const { page, errors } = await openWebShell(daemon)
    await warmFrame(page, 'warm')
    await call(daemon, 'mcp_probe_flood_app')
    const stopped = page.getByTestId('app-stopped')
    await stopped.waitFor({ timeout: 60_000 })
    expect(await stopped.locator('.app-note').textContent()).toMatch(FLOOD_CLOSED)
    expect(await page.locator('[data-testid="app-frame"]').count()).toBe(0)
    // It was the readied frame that was closed: the element is gone from the page.
    expect(
      await page.evaluate(() => (window as unknown as { warm: Element }).warm.isConnected),
    ).toBe(false)
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })

  it('gives an App a frame of its own when the readied one failed to load', async () => {
    const daemon = await startInProcess({ mcpServers: { probe: probeServer } })
    const { page, errors } = await openWebShell(daemon, { refuseFirstProxy: true })
    const handle = await page.locator(WARM).elementHandle({ timeout: 15_000 })
    await handle?.evaluate((iframe) => {
      ;(window as unknown as { failed: Element }).failed = iframe
    })
    // Failed before the App came: the page has seen the error page load.
    await page.waitForFunction(() => {
      const marks = window as unknown as { failed: Element; framesLoaded: WeakSet<Element> }
      return marks.framesLoaded.has(marks.failed)
    })
    await call(daemon, 'mcp_probe_polite_app')
    // Given the failed proxy, the card would load it again.
    const shown = await Promise.race([
      appIn(page, 0)
        .getByText('polite')
        .waitFor({ timeout: 30_000 })
        .then(() => 'App'),
      page
        .getByTestId('app-fallback')
        .waitFor({ timeout: 30_000 })
        .then(() => 'fallback'),
    ])
    expect(shown).toBe('App')
    expect(
      await page.evaluate(() => {
        const failed = (window as unknown as { failed: Element }).failed
        return {
          used: document.querySelector('[data-testid="app-frame"]') === failed,
          kept: failed.isConnected,
        }
      }),
    ).toEqual({ used: false, kept: false })
    expect(
      errors.filter((message) => !/ERR_FAILED|sandbox-proxy/.test(message)),
      errors.join('\n'),
    ).toEqual([])
    await page.close()
  })

  it('loads an App’s proxy page once more when it failed to load', async () => {
    const daemon = await startInProcess({ mcpServers: { probe: probeServer } })
    // No readied frame: the first proxy asked for is the App's own, and it fails.
    const { page, errors } = await openWebShell(daemon, {
      withoutMove: true,
      refuseFirstProxy: true,
    })
    await call(daemon, 'mcp_probe_polite_app')
    await appIn(page, 0).getByText('polite').waitFor({ timeout: 15_000 })
    expect(await page.getByTestId('app-fallback').count()).toBe(0)
    expect(await page.locator('[data-testid="app-frame"]').count()).toBe(1)
    expect(
      errors.filter((message) => !/ERR_FAILED|sandbox-proxy/.test(message)),
      errors.join('\n'),
    ).toEqual([])
    await page.close()
  })

  it('starts every App in a frame of its own where the browser cannot move a frame intact', async () => {
    const daemon = await startInProcess({ mcpServers: { probe: probeServer } })
    const { page, errors } = await openWebShell(daemon, { withoutMove: true })
    for (const nth of [0, 1]) {
      const called = await page.evaluate(() => Date.now())
      await call(daemon, 'mcp_probe_polite_app')
      await appIn(page, nth).getByText('polite').waitFor({ timeout: 15_000 })
      // Its proxy document was loaded for it, after its call.
      const handle = await page.locator('[data-testid="app-frame"]').nth(nth).elementHandle()
      const proxy = await handle?.contentFrame()
      expect(await proxy?.evaluate(() => performance.timeOrigin)).toBeGreaterThan(called)
    }
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })
})
