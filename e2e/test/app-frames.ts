// Reaching an MCP App in the WebShell from a test: the App's own frame inside the proxy's, a
// record of when frames leave the page (to check an App is told before its frame goes), and a new
// session to move to, which closes the Apps on screen.

import type { Frame, FrameLocator, Page } from 'playwright-core'
import { expect } from 'vitest'

/** The App inside the nth card: the proxy's frame, then the App's own. */
export function appIn(page: Page, nth = 0): FrameLocator {
  return page
    .locator('[data-testid="app-frame"]')
    .nth(nth)
    .contentFrame()
    .locator('iframe')
    .contentFrame()
}

/**
 * The App inside the nth card as the frame it runs in, once that frame is there. A frame locator
 * finds the App's frame again for every probe, and with a few Apps on the page that costs chromium
 * tens of milliseconds of CPU each time; a probe of the frame itself costs about a fiftieth of it.
 * For an App whose frame stays in place: `appIn` follows a frame that is made again.
 */
export async function appFrame(page: Page, nth = 0): Promise<Frame> {
  const proxy = page.locator('[data-testid="app-frame"]').nth(nth)
  const outer = await (await proxy.elementHandle())?.contentFrame()
  const inner = await (await outer?.locator('iframe').elementHandle())?.contentFrame()
  if (inner === null || inner === undefined) throw new Error(`no App in card ${nth}`)
  return inner
}

/** Where the host fixture App (app-host-html.ts) shows what its button `id` brought. */
function outputOf(id: string): string {
  return ['fullscreen', 'pip', 'inline'].includes(id) ? 'out-mode' : `out-${id}`
}

/**
 * Clicks the host fixture App's button `id` and waits until the App shows it heard the click: its
 * output, cleared first, reads '…' or an answer. Playwright reads a frame's place in the page
 * before it clicks; a frame that moves in between (a question bar or prompt came or went) takes
 * the click elsewhere, so a click the App did not see is repeated. `dispatch` sends the click to
 * the button without the mouse, for an App something else covers.
 */
export async function clickInApp(
  app: Frame | FrameLocator,
  id: string,
  dispatch = false,
): Promise<void> {
  const shown = app.locator(`#${outputOf(id)}`)
  await shown.evaluate((node) => (node.textContent = ''))
  const button = app.locator(`#${id}`)
  for (let attempt = 1; ; attempt += 1) {
    if (dispatch) await button.dispatchEvent('click')
    else await button.click()
    try {
      await expect.poll(() => shown.textContent(), { timeout: 3000 }).not.toBe('')
      return
    } catch (error) {
      if (attempt === 5) throw error
    }
  }
}

/**
 * From the page's next load on, records when an iframe leaves the document; a frame moved into a
 * card stays in it and is not counted.
 */
export async function recordFrameRemovals(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const record = window as unknown as { framesRemoved: number[] }
    record.framesRemoved = []
    new MutationObserver((changes) => {
      for (const change of changes) {
        for (const node of change.removedNodes) {
          if (node instanceof HTMLIFrameElement && !node.isConnected) {
            record.framesRemoved.push(performance.now())
          }
        }
      }
    }).observe(document, { subtree: true, childList: true })
  })
}

/** The `performance.now()` times at which frames left the page, oldest first. */
export function frameRemovals(page: Page): Promise<number[]> {
  return page.evaluate(() => [...(window as unknown as { framesRemoved: number[] }).framesRemoved])
}

/** Creates a session from the tab and waits until the tab shows it, empty. */
export async function createSession(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'New session' }).click()
  await page.getByLabel('New session name').fill(name)
  await page.getByRole('button', { name: 'Create' }).click()
  await page.getByText('No events in this session yet').waitFor()
}

/**
 * Why a flooding App was closed: the sandbox proxy's bound (200 messages a second) or the
 * WebShell's own (250), whichever one's second saw the flood first; on a busy machine either may.
 */
export const FLOOD_CLOSED = /^App closed: the App sent more than (200|250) messages in a second\.$/
