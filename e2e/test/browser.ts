// Debian's chromium driven by playwright-core, with the flags this closed network needs, and a
// record of console errors so every browser test can assert there were none. The tests run its
// headless shell: the same Blink and the same origin and sandbox rules as the browser, at about
// half the CPU for the same pages.

import {
  chromium,
  type Browser,
  type BrowserContext,
  type Disposable,
  type Page,
} from 'playwright-core'
import { afterAll, beforeAll, inject } from 'vitest'

export const CHROMIUM = '/usr/bin/chromium-headless-shell'

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** A connection to the run's chromium (see chromium-server.ts). */
export async function connectBrowser(): Promise<Browser> {
  return chromium.connect(inject('chromiumEndpoint'))
}

/**
 * A page whose console errors and page errors are collected in `errors`. A page costs the headless
 * shell about a quarter of a second of CPU to make and a fifth of that to navigate, so a page its
 * test has closed is handed to the file's next test instead, set back first (see `keptTab`).
 */
export async function openPage(browser: Browser): Promise<{ page: Page; errors: string[] }> {
  const page = idleTabs.get(browser)?.pop() ?? keptTab(browser, await browser.newPage())
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  page.on('pageerror', (error) => errors.push(error.message))
  return { page, errors }
}

/** Closed pages waiting for the next test, by the file's browser connection. */
const idleTabs = new WeakMap<Browser, Page[]>()

type Listening = [event: string, listener: (...args: never[]) => unknown]

/**
 * Makes `page.close()` set the page back instead: what a test added to it (listeners on it and its
 * context, routes, init scripts, a changed viewport, media or default timeout, other tabs,
 * cookies, permissions) goes, and it is left on about:blank, which ends the WebShell it showed as
 * closing the tab would. A page whose clock a test took over, or that fails to be set back, is
 * closed for good.
 */
function keptTab(browser: Browser, page: Page): Page {
  const context = page.context()
  const listening: (() => void)[] = []
  for (const target of [page, context] as (Page | BrowserContext)[]) {
    const on = target.on.bind(target) as (...args: Listening) => unknown
    const off = target.off.bind(target) as (...args: Listening) => unknown
    target.on = ((event: string, listener: (...args: never[]) => unknown) => {
      listening.push(() => off(event, listener))
      on(event, listener)
      return target
    }) as typeof target.on
  }
  const scripts: Disposable[] = []
  const addInitScript = page.addInitScript.bind(page)
  page.addInitScript = (async (...args: Parameters<Page['addInitScript']>) => {
    const script = await addInitScript(...args)
    scripts.push(script)
    return script
  }) as Page['addInitScript']
  let ownClock = true
  const clock = page.clock
  Object.defineProperty(page, 'clock', {
    get: () => {
      ownClock = false
      return clock
    },
  })
  const viewport = page.viewportSize()
  const close = page.close.bind(page)
  page.close = async (options) => {
    try {
      if (!ownClock) throw new Error('a page with a fake clock is not reused')
      for (const stop of listening.splice(0)) stop()
      await page.unrouteAll({ behavior: 'ignoreErrors' })
      for (const script of scripts.splice(0)) await script.dispose()
      await page.goto('about:blank')
      for (const other of context.pages()) if (other !== page) await other.close()
      if (viewport !== null) await page.setViewportSize(viewport)
      await page.emulateMedia({ media: null, colorScheme: null, reducedMotion: null })
      page.setDefaultTimeout(PLAYWRIGHT_TIMEOUT_MS)
      await context.clearCookies()
      await context.clearPermissions()
    } catch {
      await close(options)
      return
    }
    const idle = idleTabs.get(browser) ?? []
    idle.push(page)
    idleTabs.set(browser, idle)
  }
  return page
}

/** Playwright's own default for how long an action may take. */
const PLAYWRIGHT_TIMEOUT_MS = 30_000

/**
 * The errors apart from those a browser logs while the daemon is away: refused connections, and a
 * request that was on its way as the daemon stopped (its connection reset).
 */
export function errorsBesidesDaemonAway(errors: readonly string[]): string[] {
  return errors.filter(
    (message) => !/ERR_CONNECTION_REFUSED|ERR_CONNECTION_RESET|WebSocket connection/.test(message),
  )
}

/**
 * The run's browser for the whole test file, disconnected after it (closing what the file opened);
 * call at the top level of the file.
 */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser?.close()
  })
  return () => {
    if (browser === undefined) throw new Error('the browser has not started')
    return browser
  }
}
