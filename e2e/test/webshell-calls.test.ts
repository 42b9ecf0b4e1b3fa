// Calling tools from the WebShell in a real browser: a form generated from the tool's schema
// (nested object, enum, array), validation before anything is sent, progress while it runs, the
// rendered result, and cancelling a slow call.

import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, fixture, waitFor } from '../../daemon/test/harness.js'
import { startInProcess } from '../../daemon/test/in-process.js'
import { openPage, useBrowser } from './browser.js'

const browser = useBrowser()
afterEach(cleanup)

describe('calling a tool from the WebShell', () => {
  it('fills a generated form, shows progress moving and the result, and cancels a slow call', async () => {
    const daemon = await startInProcess({ mcpServers: { trip: fixture(['--form-tool']) } })
    await daemon.waitForStatus('trip', 'ready')
    const { page, errors } = await openPage(browser())
    await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor()

    const tool = page.locator('[data-tool="mcp_trip_plan_trip"]')
    await tool.getByRole('button', { name: 'plan_trip' }).click()
    const form = tool.getByTestId('tool-form')
    await form.waitFor()

    // Nothing filled in: the form says what is missing and sends nothing.
    await form.getByRole('button', { name: 'Call' }).click()
    await form.locator('.field-error').first().waitFor()
    expect(await form.locator('.field-error').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining('required')]),
    )
    expect(await page.getByTestId('call-card').count()).toBe(0)

    await form.getByLabel('destination', { exact: false }).fill('Lisbon')
    await form.getByLabel('mode', { exact: false }).selectOption('ferry')
    await form.getByRole('button', { name: 'Add stops item' }).click()
    await form.getByRole('button', { name: 'Add stops item' }).click()
    await form.getByLabel('stops 1').fill('Porto')
    await form.getByLabel('stops 2').fill('Faro')
    const traveller = form.locator('fieldset', { hasText: 'traveller' })
    await traveller.getByLabel('name', { exact: false }).fill('Ada')
    await traveller.getByLabel('age', { exact: false }).fill('36')
    await form.getByLabel('steps', { exact: false }).fill('8')
    await form.getByLabel('delayMs', { exact: false }).fill('300')
    await form.getByRole('button', { name: 'Call' }).click()

    const card = page.getByTestId('call-card').first()
    await card.waitFor()
    expect(await card.getByTestId('call-client').textContent()).toContain('WebShell tab')
    // The bar moves: two different progress readings while the call runs. A busy machine may
    // show several steps in one frame, so each reading is "at least", not an exact step.
    const reading = () =>
      card.evaluate((element) => {
        const bar = element.querySelector('progress')
        return bar === null
          ? null
          : {
              value: bar.value,
              max: bar.max,
              text: element.querySelector('[data-testid="progress-text"]')?.textContent ?? '',
            }
      })
    const early = await waitFor(async () => {
      const now = await reading()
      return now !== null && now.value >= 1 ? now : undefined
    })
    expect(early.max).toBe(8)
    expect(early.text).toMatch(/^\d of 8 — leg \d of 8$/)
    const later = await waitFor(async () => {
      const now = await reading()
      return now !== null && now.value > early.value ? now : undefined
    })
    expect(later.value).toBeGreaterThan(early.value)

    await page.locator('[data-testid="call-card"][data-state="done"]').waitFor({ timeout: 15_000 })
    const result = card.getByTestId('result')
    expect(await result.textContent()).toContain('Ada goes to Lisbon by ferry via Porto, Faro')
    // Markdown is rendered: the name was **bold**.
    expect(await result.locator('strong').textContent()).toBe('Ada')
    await card.getByTestId('structured').locator('summary').click()
    const structured = JSON.parse(
      (await card.getByTestId('structured').locator('pre').textContent()) ?? '',
    )
    expect(structured).toEqual({
      destination: 'Lisbon',
      mode: 'ferry',
      stops: ['Porto', 'Faro'],
      traveller: { name: 'Ada', age: 36 },
    })
    const args = JSON.parse((await card.getByTestId('call-arguments').textContent()) ?? '')
    expect(args).toEqual({ ...structured, steps: 8, delayMs: 300 })

    // A slow call, cancelled from its card.
    const slow = page.locator('[data-tool="mcp_trip_slow"]')
    await slow.getByRole('button', { name: 'slow' }).click()
    const slowForm = slow.getByTestId('tool-form')
    await slowForm.getByLabel('steps', { exact: false }).fill('200')
    await slowForm.getByLabel('delayMs', { exact: false }).fill('200')
    await slowForm.getByRole('button', { name: 'Call' }).click()
    const running = page.locator('[data-testid="call-card"][data-state="running"]')
    await running.getByTestId('progress-text').waitFor()
    await running.getByRole('button', { name: 'Cancel' }).click()
    const cancelled = page.locator('[data-testid="call-card"][data-state="cancelled"]')
    await cancelled.waitFor()
    expect(await cancelled.getByTestId('call-state').textContent()).toBe('cancelled')
    expect(await cancelled.getByRole('button', { name: 'Cancel' }).count()).toBe(0)
    // The card tells how the call ended; the form that started it stays clean.
    expect(await slow.getByTestId('call-error').count()).toBe(0)

    // The raw JSON editor: a parse error is explained and nothing is sent; valid JSON calls.
    await slowForm.getByRole('button', { name: 'Edit as JSON' }).click()
    const json = slowForm.getByLabel('Arguments as JSON')
    await json.fill('{"steps": 1, "delayMs": ')
    await slowForm.getByRole('button', { name: 'Call' }).click()
    await slowForm.getByText('Not valid JSON').waitFor()
    expect(await page.getByTestId('call-card').count()).toBe(2)
    await json.fill('{"steps": 1, "delayMs": 5}')
    await slowForm.getByRole('button', { name: 'Call' }).click()
    await page.locator('[data-testid="call-card"][data-state="done"]').nth(1).waitFor()
    const last = page.getByTestId('call-card').nth(2)
    expect(JSON.parse((await last.getByTestId('call-arguments').textContent()) ?? '')).toEqual({
      steps: 1,
      delayMs: 5,
    })

    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })
})
