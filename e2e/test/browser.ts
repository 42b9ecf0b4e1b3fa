// Debian's chromium driven by playwright-core, with the flags this closed network needs, and a
// record of console errors so every browser test can assert there were none.

import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, inject } from 'vitest'

export const CHROMIUM = '/usr/bin/chromium'

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

/** A new page whose console errors and page errors are collected in `errors`. */
export async function openPage(browser: Browser): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage()
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  page.on('pageerror', (error) => errors.push(error.message))
  return { page, errors }
}

/** The errors apart from those a browser logs while the daemon is away (refused connections). */
export function errorsBesidesDaemonAway(errors: readonly string[]): string[] {
  return errors.filter((message) => !/ERR_CONNECTION_REFUSED|WebSocket connection/.test(message))
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
