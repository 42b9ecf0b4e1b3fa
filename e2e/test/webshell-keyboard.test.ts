// Answering from the keyboard in a real browser: a confirmation for the call the person just made
// takes focus when it appears, shows its call's arguments, is answered with one key from where Call
// was pressed once its answers wake, gives focus back, and stays pinned in view while the
// transcript is scrolled away from its card.

import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, fixture } from '../../daemon/test/harness.js'
import { startInProcess } from '../../daemon/test/in-process.js'
import { openPage, useBrowser } from './browser.js'

const browser = useBrowser()
afterEach(cleanup)

/** What has focus: its test id or text, and the tool row it sits in. */
function focused(page: Page): Promise<{ text: string; tool: string | null; inBar: boolean }> {
  return page.evaluate(() => {
    const active = document.activeElement as HTMLElement | null
    return {
      text: active?.textContent?.trim() ?? '',
      tool: active?.closest('[data-tool]')?.getAttribute('data-tool') ?? null,
      inBar: active?.closest('[data-testid="question-bar"]') !== null,
    }
  })
}

/** Waits until the question shown has been up for the guard time, so its keys answer. */
async function armed(page: Page): Promise<void> {
  await page.locator('[data-testid="question-bar"][data-armed="true"]').waitFor({ timeout: 10_000 })
}

/** Waits until focus is on the control whose text starts with `text`. */
async function focusLandsOn(page: Page, text: string): Promise<void> {
  await page.waitForFunction(
    (wanted) => document.activeElement?.textContent?.trim().startsWith(wanted) === true,
    text,
    { timeout: 10_000 },
  )
}

describe('answering from the keyboard', () => {
  it('takes a call from pressing Call to its answer in at most two keystrokes, and gives focus back', async () => {
    const daemon = await startInProcess({ mcpServers: { fx: fixture([], { trust: false }) } })
    await daemon.waitForStatus('fx', 'ready')
    const { page, errors } = await openPage(browser())
    await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor()

    const slow = page.locator('[data-tool="mcp_fx_slow"]')
    await slow.locator('.tool-toggle').click()
    const form = slow.getByTestId('tool-form')
    await form.getByLabel('steps', { exact: false }).fill('2')
    await form.getByLabel('delayMs', { exact: false }).fill('5')
    await form.getByRole('button', { name: 'Call' }).focus()

    const pressed: string[] = []
    const press = async (key: string) => {
      pressed.push(key)
      await page.keyboard.press(key)
    }
    // Pressing Call is the first keystroke; from there, answering takes the rest.
    await page.keyboard.press('Enter')
    const ask = page.getByTestId('question-bar').getByTestId('confirmation')
    await ask.waitFor()
    await focusLandsOn(page, 'Allow once')
    // The question shows what the call will do.
    expect(JSON.parse((await ask.getByTestId('question-arguments').textContent()) ?? '')).toEqual({
      steps: 2,
      delayMs: 5,
    })
    await armed(page)
    await press('Enter')
    const card = page.locator('[data-testid="call-card"][data-state="done"]')
    await card.waitFor()
    expect(await card.getByTestId('confirmation-answer').textContent()).toMatch(/allowed once\.$/)
    expect(pressed).toEqual(['Enter'])
    expect(pressed.length).toBeLessThanOrEqual(2)
    // Focus is back on the Call button it came from, and the bar is gone.
    await focusLandsOn(page, 'Call')
    expect(await focused(page)).toMatchObject({ text: 'Call', tool: 'mcp_fx_slow', inBar: false })
    expect(await page.getByTestId('question-bar').count()).toBe(0)

    // A key per answer: D denies, wherever focus landed in the question.
    pressed.length = 0
    await page.keyboard.press('Enter')
    await ask.waitFor()
    await focusLandsOn(page, 'Allow once')
    await armed(page)
    await press('d')
    const denied = page.getByTestId('call-card').nth(1)
    await denied.getByTestId('confirmation-answer').waitFor()
    expect(await denied.getByTestId('confirmation-answer').textContent()).toMatch(/denied\.$/)
    expect(pressed).toEqual(['d'])
    await focusLandsOn(page, 'Call')
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })

  it('keeps questions in view while the transcript is scrolled away, queues a second one, and answers each in two keys from there', async () => {
    const daemon = await startInProcess({ mcpServers: { fx: fixture([], { trust: false }) } })
    await daemon.waitForStatus('fx', 'ready')
    // Enough rows that the transcript scrolls.
    for (let i = 0; i < 12; i++) {
      const echo = await daemon.api('/call', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tool: 'mcp_fx_echo', arguments: { text: `row ${i}` } }),
      })
      expect(echo.status, await echo.text()).toBe(200)
    }
    const { page, errors } = await openPage(browser())
    await page.setViewportSize({ width: 1400, height: 700 })
    await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor()
    await page.getByTestId('result').filter({ hasText: 'row 11' }).waitFor()
    const search = page.getByLabel('Search tools')
    await search.focus()

    const terminal = daemon.cli(['call', 'mcp_fx_slow', '{"steps":1,"delayMs":5}'])
    const ask = page.getByTestId('question-bar').getByTestId('confirmation')
    await ask.waitFor()
    // Focus is in the search box, so the question waits there for Alt+Q; Escape leaves it open
    // and puts focus back in the search box.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('search')
    await page.keyboard.press('Alt+KeyQ')
    await focusLandsOn(page, 'Allow once')
    await page.keyboard.press('Escape')
    await page.waitForFunction(() => document.activeElement?.getAttribute('type') === 'search')

    // Scrolled to the top, the waiting card is out of the DOM; its question is still on screen.
    const transcript = page.getByTestId('transcript')
    await transcript.focus()
    await page.keyboard.press('Home')
    await page.locator('[data-seq="1"]').waitFor()
    expect(await page.locator('[data-testid="call-card"][data-state="confirming"]').count()).toBe(0)
    const box = await ask.boundingBox()
    expect(box !== null && box.y >= 0 && box.y + box.height <= 700).toBe(true)

    // A second question queues behind the first without taking focus from the transcript.
    const second = daemon.cli(['call', 'mcp_fx_slow', '{"steps":1,"delayMs":6}'])
    await page.getByTestId('question-count').filter({ hasText: 'Question 1 of 2' }).waitFor()
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      'transcript',
    )

    // From there, two keys: Alt+Q back to the question, A to allow it once.
    await page.keyboard.press('Alt+KeyQ')
    await focusLandsOn(page, 'Allow once')
    await armed(page)
    await page.keyboard.press('a')
    const finished = await terminal
    expect(finished.code, finished.stderr).toBe(0)
    // The next question takes over, focused; D denies it, and focus goes back to the transcript.
    await page.getByTestId('question-count').waitFor({ state: 'detached' })
    await focusLandsOn(page, 'Allow once')
    expect(JSON.parse((await ask.getByTestId('question-arguments').textContent()) ?? '')).toEqual({
      steps: 1,
      delayMs: 6,
    })
    await armed(page)
    await page.keyboard.press('d')
    expect((await second).code).not.toBe(0)
    await page.getByTestId('question-bar').waitFor({ state: 'detached' })
    await page.waitForFunction(
      () => document.activeElement?.getAttribute('data-testid') === 'transcript',
      undefined,
      { timeout: 10_000 },
    )
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })
})
