// Getting around the WebShell, in a real browser at a desktop and a phone size, with seven servers
// listed: the first Tab stop skips to the tool search and `/` goes there too (not while typing),
// each server's buttons say which server they act on, the palette the person picks is kept across
// loads, and axe finds nothing wrong with a tool form open and a confirmation waiting.

import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanup, fixture } from '../../daemon/test/harness.js'
import { startInProcess, type InProcessDaemon } from '../../daemon/test/in-process.js'
import { openPage, useBrowser } from './browser.js'

const browser = useBrowser()

const SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const

/** The page's background in each palette (`--bg`). */
const LIGHT = 'rgb(255, 255, 255)'
const DARK = 'rgb(13, 17, 23)'

const SERVERS = ['fx', 'alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot']

let daemon: InProcessDaemon
beforeAll(async () => {
  daemon = await startInProcess({
    mcpServers: Object.fromEntries(
      SERVERS.map((name) => [name, fixture([], name === 'fx' ? { trust: false } : {})]),
    ),
  })
  for (const name of SERVERS) await daemon.waitForStatus(name, 'ready')
})
afterAll(cleanup)

async function open(page: Page): Promise<void> {
  await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
  await page.locator('[data-testid="connection"][data-state="live"]').waitFor()
  await page.getByTestId('server-foxtrot').waitFor()
}

/** What has focus: its id, or its text. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const active = document.activeElement as HTMLElement | null
    return active?.id || active?.textContent?.trim() || active?.tagName || ''
  })
}

describe('getting around the WebShell', () => {
  it('reaches the tool search from load in two keys through the skip link and with / when not typing, and names the server on its buttons', async () => {
    const { page, errors } = await openPage(browser())
    for (const size of SIZES) {
      await page.setViewportSize(size)
      await open(page)
      // Each server's buttons say which server they act on (their accessible names, in order).
      const names = [
        ...(await page.locator('.servers').ariaSnapshot()).matchAll(
          /button "((?:Show stderr|Reconnect)[^"]*)"/g,
        ),
      ].map((match) => match[1])
      expect(names).toEqual(
        SERVERS.flatMap((name) => [`Show stderr of ${name}`, `Reconnect ${name}`]),
      )

      const keys: string[] = []
      const press = async (key: string) => {
        keys.push(key)
        await page.keyboard.press(key)
      }
      await press('Tab')
      expect(await focused(page)).toBe('Skip to tool search')
      // Out of sight until focused, then on screen.
      const box = await page.getByTestId('skip-to-search').boundingBox()
      expect(box !== null && box.y >= 0 && box.x + box.width <= size.width).toBe(true)
      await press('Enter')
      await page.waitForFunction(() => document.activeElement?.id === 'tool-search')
      expect(keys.length).toBeLessThanOrEqual(2)

      // `/` from anywhere that does not take text, even from another pane.
      await page.getByTestId('server-fx').locator('.server-pick').click()
      await page.getByTestId('tab-prompts').click()
      await page.getByTestId('tab-prompts').focus()
      await page.keyboard.press('/')
      await page.waitForFunction(() => document.activeElement?.id === 'tool-search')
      expect(await page.getByTestId('tab-tools').getAttribute('aria-selected')).toBe('true')
      expect(await page.locator('#tool-search').inputValue()).toBe('')
    }

    // Typed in a field, `/` is a character.
    await page.keyboard.type('a/b')
    expect(await page.locator('#tool-search').inputValue()).toBe('a/b')
    await page.locator('#tool-search').fill('')
    const echo = page.locator('[data-tool="mcp_fx_echo"]')
    await echo.locator('.tool-toggle').click()
    const text = echo.getByTestId('tool-form').getByLabel('text', { exact: false })
    await text.focus()
    await page.keyboard.type('x/y')
    expect(await text.inputValue()).toBe('x/y')
    expect(await focused(page)).not.toBe('tool-search')
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })

  it('switches between light, dark and the system palette, and keeps the choice across loads', async () => {
    const { page, errors } = await openPage(browser())
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor)
    const theme = page.getByTestId('theme')
    const reload = async () => {
      await page.reload()
      await page.locator('[data-testid="connection"][data-state="live"]').waitFor()
    }
    await page.setViewportSize(SIZES[0])
    await page.emulateMedia({ colorScheme: 'light' })
    await open(page)
    expect(await theme.inputValue()).toBe('system')
    expect(await background()).toBe(LIGHT)
    await theme.selectOption('dark')
    expect(await background()).toBe(DARK)
    await reload()
    expect(await theme.inputValue()).toBe('dark')
    expect(await background()).toBe(DARK)

    // At the phone size too, light wins over a dark system, and the system's is followed again
    // once chosen.
    await page.setViewportSize(SIZES[1])
    expect(await theme.isVisible()).toBe(true)
    await page.emulateMedia({ colorScheme: 'dark' })
    await theme.selectOption('light')
    expect(await background()).toBe(LIGHT)
    await theme.selectOption('system')
    expect(await background()).toBe(DARK)
    await reload()
    expect(await theme.inputValue()).toBe('system')
    expect(await background()).toBe(DARK)
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })

  it('has no axe violations with servers listed, a tool form open and a confirmation waiting', async () => {
    const { page, errors } = await openPage(browser())
    await page.setViewportSize(SIZES[0])
    await open(page)
    await page.getByTestId('server-fx').locator('.server-pick').click()
    const echo = page.locator('[data-tool="mcp_fx_echo"]')
    await echo.locator('.tool-toggle').click()
    await echo.getByTestId('tool-form').waitFor()
    const call = daemon.cli(['call', 'mcp_fx_slow', '{"steps":1,"delayMs":5}'])
    const ask = page.getByTestId('question-bar').getByTestId('confirmation')
    await ask.waitFor()
    // Evaluated through the debugging protocol: the page's CSP rightly refuses a script tag.
    await page.evaluate(
      await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'),
    )
    // Each size in one of the two palettes.
    for (const [size, colorScheme] of [
      [SIZES[0], 'light'],
      [SIZES[1], 'dark'],
    ] as const) {
      await page.setViewportSize(size)
      await page.emulateMedia({ colorScheme })
      const violations = await page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run(options: object): Promise<AxeResults> } })
          .axe
        interface AxeResults {
          violations: { id: string; help: string; nodes: { target: unknown[] }[] }[]
        }
        const results = await axe.run({ resultTypes: ['violations'] })
        return results.violations.map((violation) => ({
          id: violation.id,
          help: violation.help,
          targets: violation.nodes.map((node) => JSON.stringify(node.target)),
        }))
      })
      expect(violations, `${size.width}×${size.height}, ${colorScheme}`).toEqual([])
    }
    await ask.getByRole('button', { name: 'Deny' }).click()
    expect((await call).code).not.toBe(0)
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })
})
