// How the WebShell shows things, in a real browser: every kind of result content under the page's
// CSP, the tool search, keyboard use, dark and light themes from the OS, 200% zoom, and a
// transcript of thousands of events kept to a few rows in the DOM.

import { afterEach, describe, expect, it } from 'vitest'
import { echoCalls, writeStoredSession } from '../../daemon/src/bench/stored-session.js'
import { cleanup, fixture, tempDir } from '../../daemon/test/harness.js'
import { startInProcess } from '../../daemon/test/in-process.js'
import { openPage, useBrowser } from './browser.js'

const browser = useBrowser()
afterEach(cleanup)

describe('the WebShell view', () => {
  it('renders every kind of content, searches tools, and is keyboard operable', async () => {
    const daemon = await startInProcess({ mcpServers: { fx: fixture([]) } })
    await daemon.waitForStatus('fx', 'ready')
    const { page, errors } = await openPage(browser())
    await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor()

    // Search narrows the list; annotations show as tags.
    await page.getByLabel('Search tools').fill('block every kind')
    expect(await page.getByTestId('tool').count()).toBe(1)
    const rich = page.locator('[data-tool="mcp_fx_rich"]')
    expect(await rich.locator('.tag').allTextContents()).toEqual(['read-only'])

    // Keyboard only: focus the tool, open its form, submit it.
    await rich.getByRole('button', { name: 'rich' }).focus()
    await page.keyboard.press('Enter')
    await rich.getByTestId('tool-form').waitFor()
    await rich.getByRole('button', { name: 'Call' }).focus()
    await page.keyboard.press('Enter')

    const result = page.locator(
      '[data-testid="call-card"][data-state="done"] [data-testid="result"]',
    )
    await result.waitFor()
    expect(await result.textContent()).toContain('rich text')
    const image = result.locator('img')
    await page.waitForFunction(
      () =>
        (document.querySelector('[data-testid="result"] img') as HTMLImageElement | null)?.complete,
    )
    expect(await image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBe(1)
    expect(await result.locator('audio').getAttribute('src')).toMatch(/^data:audio\/wav;base64,/)
    expect(await result.textContent()).toContain('fixture://readme')
    expect(await result.textContent()).toContain('embedded text')
    expect(await result.getByTestId('structured').textContent()).toContain('"ok": true')

    // A tool error is shown in red with the server's reason.
    await page.getByLabel('Search tools').fill('fail')
    await page.locator('[data-tool="mcp_fx_fail"]').getByRole('button', { name: 'fail' }).click()
    await page.locator('[data-tool="mcp_fx_fail"]').getByRole('button', { name: 'Call' }).click()
    const failed = page.locator('[data-testid="call-card"][data-state="error"]')
    await failed.waitFor()
    expect(await failed.getByTestId('result').getAttribute('data-error')).toBe('true')
    expect(await failed.getByTestId('result').textContent()).toContain('tool failed on purpose')

    // Themes follow the OS.
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor)
    await page.emulateMedia({ colorScheme: 'dark' })
    const dark = await background()
    await page.emulateMedia({ colorScheme: 'light' })
    const light = await background()
    expect(dark).not.toBe(light)
    expect(light).toBe('rgb(255, 255, 255)')

    // 200% zoom on a 1280-pixel window leaves 640 CSS pixels: the columns stack, nothing overflows.
    await page.setViewportSize({ width: 640, height: 450 })
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    )
    expect(overflow).toBeLessThanOrEqual(0)
    // The server summary stays in view while the stacked page scrolls.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
    const summary = await page.getByTestId('summary').boundingBox()
    expect(summary !== null && summary.y >= 0 && summary.y < 450).toBe(true)

    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })

  it('keeps a 6,000-event transcript to a few rows in the DOM and scrolls to its start', async () => {
    const stateDir = await tempDir('ferry-state-')
    await writeStoredSession(
      stateDir,
      'big',
      echoCalls(6000, (seq) => `reply ${seq}`),
    )
    const daemon = await startInProcess({ mcpServers: {} }, { stateDir })

    const { page, errors } = await openPage(browser())
    await page.goto(`${daemon.info.url}?session=big#token=${daemon.info.token}`)
    const transcript = page.getByTestId('transcript')
    await page.locator('[data-testid="transcript"][data-last-seq="6000"]').waitFor()
    // Opens at the newest event.
    await page.getByTestId('result').filter({ hasText: 'reply 5999' }).waitFor()
    const rows = () => page.locator('[data-seq]').count()
    expect(await rows()).toBeLessThan(60)

    await transcript.focus()
    await page.keyboard.press('Home')
    await page.locator('[data-seq="1"]').waitFor()
    // Seen once the scroll to the start has settled: the first call's result on screen.
    await page
      .getByTestId('result')
      .filter({ hasText: /^reply 1$/ })
      .waitFor({ state: 'visible' })
    expect(await rows()).toBeLessThan(60)
    await page.keyboard.press('End')
    await page.locator('[data-seq="5999"]').waitFor()
    expect(await page.locator('[data-seq="1"]').count()).toBe(0)
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })
})
