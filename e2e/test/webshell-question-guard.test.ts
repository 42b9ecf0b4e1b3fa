// A question that arrives while the person is typing, in a real browser with a real keyboard: it
// leaves their keys where they were going, says it is waiting (on screen and to screen readers),
// and its answer keys work only after Alt+Q and once it has been shown for the guard time, which
// the page's clock (Playwright's) decides here, so no step depends on how fast the machine is.

import type { Locator, Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import type { TranscriptEvent } from '../../daemon/src/protocol/index.js'
import { cleanup, fixture, waitFor } from '../../daemon/test/harness.js'
import { startInProcess, type InProcessDaemon } from '../../daemon/test/in-process.js'
import { openPage, useBrowser } from './browser.js'

const browser = useBrowser()
afterEach(cleanup)

const NOTICE = 'A confirmation is waiting: press Alt+Q to answer it.'

async function untrustedDaemon(): Promise<InProcessDaemon> {
  const daemon = await startInProcess({ mcpServers: { fx: fixture([], { trust: false }) } })
  await daemon.waitForStatus('fx', 'ready')
  return daemon
}

async function openShell(page: Page, daemon: InProcessDaemon): Promise<void> {
  page.setDefaultTimeout(10_000)
  await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
  await page.locator('[data-testid="connection"][data-state="live"]').waitFor()
}

/** What has focus, read from the test's side (the page's own timers may be stopped). */
function focused(
  page: Page,
): Promise<{ text: string; testid: string | null; type: string | null }> {
  return page.evaluate(() => {
    const active = document.activeElement
    return {
      text: active?.textContent?.trim() ?? '',
      testid: active?.getAttribute('data-testid') ?? null,
      type: active?.getAttribute('type') ?? null,
    }
  })
}

async function focusLandsOn(page: Page, text: string): Promise<void> {
  await waitFor(async () => (await focused(page)).text.startsWith(text), 10_000, `focus on ${text}`)
}

function outcomes(events: TranscriptEvent[]): string[] {
  return events.flatMap((event) => (event.type === 'confirmation.resolved' ? [event.outcome] : []))
}

describe('a question that arrives while the person is typing', () => {
  it('leaves every letter typed in the tool search there, announces itself, and is answered only after Alt+Q', async () => {
    const daemon = await untrustedDaemon()
    const { page, errors } = await openPage(browser())
    await openShell(page, daemon)
    const search = page.getByLabel('Search tools')
    await search.focus()
    let typed = ''
    const type = async (text: string) => {
      typed += text
      await page.keyboard.type(text)
    }

    await type('sl')
    const terminal = daemon.cli(['call', 'mcp_fx_slow', '{"steps":1,"delayMs":5}'])
    const ask = page.getByTestId('question-bar').getByTestId('confirmation')
    // The person keeps typing while the question is on its way, and after it shows, each of the
    // answer keys among the letters.
    await waitFor(
      async () => (await ask.isVisible()) || void (await type('o')),
      15_000,
      'the confirmation',
    )
    await type('w tasd')
    expect(await search.inputValue()).toBe(typed)
    expect(await focused(page)).toMatchObject({ type: 'search' })

    // It says it is waiting, in a polite live region and on screen.
    const notice = page.getByTestId('question-notice')
    expect(await notice.getAttribute('role')).toBe('status')
    expect(await notice.textContent()).toBe(NOTICE)
    expect(await notice.isVisible()).toBe(true)
    expect(await ask.isVisible()).toBe(true)

    // Alt+Q is the deliberate step; its A is the first answer the daemon records (an answer key
    // typed in the search box would have been recorded before it, and won).
    await page.keyboard.press('Alt+KeyQ')
    await focusLandsOn(page, 'Allow once')
    expect(await notice.textContent()).toBe('')
    await page.locator('[data-testid="question-bar"][data-armed="true"]').waitFor()
    await page.keyboard.press('a')
    const finished = await terminal
    expect(finished.code, finished.stderr).toBe(0)
    expect(outcomes(await daemon.events())).toEqual(['allow_once'])
    // Answered, the question gives focus back to the search box, with everything typed in it.
    await waitFor(async () => (await focused(page)).type === 'search', 10_000, 'focus back')
    expect(await search.inputValue()).toBe(typed)
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })

  it('does not take focus just after a key, and keeps its answers asleep for the guard time even when it takes focus', async () => {
    const daemon = await untrustedDaemon()
    const { page, errors } = await openPage(browser())
    const asked: string[] = []
    page.on('websocket', (socket) =>
      socket.on('framereceived', (frame) => {
        if (typeof frame.payload === 'string' && frame.payload.includes('confirmation.requested')) {
          asked.push(frame.payload)
        }
      }),
    )
    await page.clock.install()
    await openShell(page, daemon)
    // From here the page's time moves only when the test moves it.
    await page.clock.pauseAt(Date.now() + 2_000)
    const bar = page.getByTestId('question-bar')
    const ask = bar.getByTestId('confirmation')
    const allow = ask.getByRole('button', { name: 'Allow once' })
    /** Moves the page's time a frame at a time until `locator` shows, once the question reached the tab. */
    const showsUp = async (locator: Locator, questions: number) => {
      await waitFor(() => asked.length >= questions || undefined, 15_000, 'the question to arrive')
      await waitFor(
        async () => (await locator.isVisible()) || void (await page.clock.runFor(16)),
        10_000,
        'the question to show',
      )
    }
    /** Moves the page's time until the question is armed; returns how far it moved. */
    const armedAfter = async () => {
      let moved = 0
      while ((await bar.getAttribute('data-armed')) !== 'true') {
        await page.clock.runFor(50)
        moved += 50
        if (moved > 5_000) throw new Error('the question never armed')
      }
      return moved
    }

    // A key pressed on the transcript, then a question: it stays in the bar and says so.
    await page.getByTestId('transcript').focus()
    await page.keyboard.press('x')
    const first = daemon.cli(['call', 'mcp_fx_slow', '{"steps":1,"delayMs":5}'])
    await showsUp(ask, 1)
    expect(await focused(page)).toMatchObject({ testid: 'transcript' })
    expect(await page.getByTestId('question-notice').textContent()).toBe(NOTICE)
    // Alt+Q brings focus to it; its answers are still asleep, so A gives nothing.
    await page.keyboard.press('Alt+KeyQ')
    await focusLandsOn(page, 'Allow once')
    const asleep = await allow.getAttribute('aria-disabled')
    await page.keyboard.press('a')
    const firstSlept = await armedAfter()
    const awake = await allow.getAttribute('aria-disabled')
    await page.keyboard.press('d')
    const denied = await first
    expect(outcomes(await daemon.events())).toEqual(['deny'])
    expect(denied.code).not.toBe(0)
    // Shown asleep, then awake, after at least half a second of the page's time.
    expect([asleep, awake]).toEqual(['true', null])
    expect(firstSlept).toBeGreaterThanOrEqual(500)

    // Long after the last key, the next question takes focus, on Allow once; T pressed at once
    // gives nothing, and A after the guard time is the answer recorded.
    await page.clock.runFor(5_000)
    await bar.waitFor({ state: 'detached' })
    await waitFor(async () => (await focused(page)).testid === 'transcript', 10_000, 'focus back')
    const second = daemon.cli(['call', 'mcp_fx_slow', '{"steps":1,"delayMs":6}'])
    await showsUp(ask, 2)
    await focusLandsOn(page, 'Allow once')
    expect(await page.getByTestId('question-notice').textContent()).toBe('')
    const asleepAgain = await allow.getAttribute('aria-disabled')
    await page.keyboard.press('t')
    const secondSlept = await armedAfter()
    await page.keyboard.press('a')
    const finished = await second
    expect(outcomes(await daemon.events())).toEqual(['deny', 'allow_once'])
    expect(finished.code, finished.stderr).toBe(0)
    expect(asleepAgain).toBe('true')
    expect(secondSlept).toBeGreaterThanOrEqual(500)
    await page.clock.resume()
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })
})
