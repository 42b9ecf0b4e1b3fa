// An App's display modes in the WebShell, in a real browser: full screen and the floating panel on
// the App's request (only for modes it declares), Escape and the close bar bringing it back, the
// question bar above it, its teardown before its frame goes in every mode, the host context it is
// kept told (locale, time zone, palette, container size) and its height within each mode's bounds.

import type { Browser, Frame, FrameLocator, Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { appModesServerPath } from '../fixtures/paths.js'
import { cleanup, type Daemon } from '../../daemon/test/harness.js'
import { startInProcess } from '../../daemon/test/in-process.js'
import {
  appFrame,
  appIn,
  clickInApp,
  createSession,
  frameRemovals,
  recordFrameRemovals,
} from './app-frames.js'
import { openPage, useBrowser } from './browser.js'

const browser = useBrowser()
afterEach(cleanup)

const modesServer = { command: process.execPath, args: [appModesServerPath] }

interface HostContext {
  displayMode?: string
  availableDisplayModes?: string[]
  containerDimensions?: { width?: number; height?: number; maxHeight?: number }
  locale?: string
  timeZone?: string
  platform?: string
  userAgent?: string
  deviceCapabilities?: { touch?: boolean; hover?: boolean }
  theme?: string
  styles?: { variables?: Record<string, string> }
}

/** A page in its own context (for locale and time zone), with its console errors collected. */
async function openPageWith(
  from: Browser,
  options: Parameters<Browser['newContext']>[0] = {},
): Promise<{ page: Page; errors: string[] }> {
  const context = await from.newContext(options)
  const page = await context.newPage()
  page.on('close', () => void context.close())
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  page.on('pageerror', (error) => errors.push(error.message))
  return { page, errors }
}

async function shellWith(
  options: Parameters<Browser['newContext']>[0] = {},
): Promise<{ daemon: Daemon; page: Page; errors: string[] }> {
  const daemon = await startInProcess({ mcpServers: { modes: modesServer } })
  await daemon.waitForStatus('modes', 'ready')
  const { page, errors } =
    Object.keys(options).length === 0
      ? await openPage(browser())
      : await openPageWith(browser(), options)
  await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
  await page.locator('[data-testid="connection"][data-state="live"]').waitFor()
  return { daemon, page, errors }
}

async function showApp(page: Page, tool = 'modes_app', nth = 0): Promise<Frame> {
  const item = page.locator(`[data-tool="mcp_modes_${tool}"]`)
  const call = item.getByRole('button', { name: 'Call' })
  if (!(await call.isVisible())) await item.locator('.tool-toggle').click()
  await call.click()
  await appIn(page, nth).locator('#status').getByText('ready').waitFor({ timeout: 15_000 })
  return appFrame(page, nth)
}

/**
 * Clicks one of the App's mode buttons and returns the mode the WebShell answered with. An App
 * under another one's panel gets its click dispatched: the App asks, whatever covers it.
 */
async function askMode(
  app: Frame | FrameLocator,
  mode: 'inline' | 'fullscreen' | 'pip',
  covered = false,
): Promise<string> {
  const out = app.locator('#out-mode')
  await clickInApp(app, mode, covered)
  await expect.poll(() => out.textContent()).not.toBe('…')
  return (await out.textContent()) ?? ''
}

async function hostContext(app: Frame | FrameLocator): Promise<HostContext> {
  return JSON.parse((await app.locator('#host-context').textContent()) ?? '{}') as HostContext
}

async function frameBox(page: Page, nth = 0) {
  const box = await page.locator('[data-testid="app-frame"]').nth(nth).boundingBox()
  if (box === null) throw new Error('the App frame is not laid out')
  return box
}

/** Whether the point is drawn by the element `selector` names (nothing covers it there). */
function drawnAt(page: Page, selector: string, x: number, y: number): Promise<boolean> {
  return page.evaluate(
    ({ selector, x, y }) => {
      const target = document.querySelector(selector)
      const hit = document.elementFromPoint(x, y)
      return target !== null && hit !== null && (target === hit || target.contains(hit))
    },
    { selector, x, y },
  )
}

/** Marks the App's window, so a reload (which a moved frame would cause) shows as a lost mark. */
async function markApp(app: Frame | FrameLocator): Promise<void> {
  await app.locator('body').evaluate(() => {
    ;(window as unknown as { mark?: string }).mark = 'kept'
  })
}

async function appMark(app: Frame | FrameLocator): Promise<string | undefined> {
  return app.locator('body').evaluate(() => (window as unknown as { mark?: string }).mark)
}

describe('App display modes in the WebShell', () => {
  it('shows an App full screen on its request, keeps questions answerable above it, and Escape brings it back', async () => {
    const { daemon, page, errors } = await shellWith()
    const app = await showApp(page)
    await markApp(app)
    const inlineBox = await frameBox(page)

    expect(await askMode(app, 'fullscreen')).toBe('fullscreen')
    await expect.poll(() => app.locator('#mode').textContent()).toBe('fullscreen')
    const viewport = page.viewportSize() ?? { width: 0, height: 0 }
    // The frame fills the tab below the close bar, which stays in view.
    await expect.poll(async () => (await frameBox(page)).width).toBe(viewport.width)
    const box = await frameBox(page)
    expect(box.x).toBe(0)
    expect(box.y + box.height).toBeCloseTo(viewport.height, 0)
    expect(box.height).toBeGreaterThan(viewport.height - 80)
    const close = page.getByTestId('app-mode-close')
    const closeBox = await close.boundingBox()
    expect(closeBox).not.toBeNull()
    expect(
      await drawnAt(
        page,
        '[data-testid="app-mode-close"]',
        (closeBox?.x ?? 0) + (closeBox?.width ?? 0) / 2,
        (closeBox?.y ?? 0) + (closeBox?.height ?? 0) / 2,
      ),
    ).toBe(true)
    expect(await page.getByTestId('app-away').textContent()).toContain('shown full screen')
    // The App is told its new place and size: the container it fills, exactly.
    const container = await page
      .getByTestId('app-container')
      .evaluate((node) => ({ width: node.clientWidth, height: node.clientHeight }))
    await expect.poll(async () => (await hostContext(app)).containerDimensions).toEqual(container)
    expect(container.width).toBe(viewport.width)
    // Restyled, not moved: the App was not reloaded.
    expect(await appMark(app)).toBe('kept')

    // A confirmation that comes while the App fills the tab is drawn above it and can be answered.
    const call = daemon.cli(['call', 'mcp_modes_nudge', '{}'])
    const allow = page.getByTestId('question-bar').getByRole('button', { name: 'Allow once' })
    await allow.waitFor()
    const allowBox = await allow.boundingBox()
    expect(
      await drawnAt(
        page,
        '[data-testid="question-bar"]',
        (allowBox?.x ?? 0) + (allowBox?.width ?? 0) / 2,
        (allowBox?.y ?? 0) + (allowBox?.height ?? 0) / 2,
      ),
    ).toBe(true)
    // Escape in the question leaves it for later, as anywhere; it does not take the App back.
    await page.waitForFunction(
      () => document.activeElement?.closest('[data-testid="question-bar"]') != null,
    )
    await page.keyboard.press('Escape')
    await page.waitForFunction(
      () => document.activeElement?.getAttribute('data-testid') === 'app-mode-close',
    )
    expect(await page.getByTestId('app-stage').getAttribute('data-mode')).toBe('fullscreen')
    await allow.click()
    const answered = await call
    expect(answered.code, answered.stderr).toBe(0)
    expect(answered.stdout).toContain('nudged')
    await page.getByTestId('question-bar').waitFor({ state: 'detached' })
    expect(await page.getByTestId('app-stage').getAttribute('data-mode')).toBe('fullscreen')

    // Focus is on the page, not in the App: Escape returns the App to its card.
    expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe('IFRAME')
    await page.keyboard.press('Escape')
    await expect.poll(() => app.locator('#mode').textContent()).toBe('inline')
    await page.locator('[data-testid="app-stage"][data-mode="inline"]').waitFor()
    expect(await page.getByTestId('app-away').count()).toBe(0)
    await expect.poll(async () => (await frameBox(page)).width).toBe(inlineBox.width)
    expect((await hostContext(app)).containerDimensions).toEqual({
      width: inlineBox.width,
      maxHeight: 2000,
    })
    expect(await appMark(app)).toBe('kept')

    // Asked from inside the App, where the click left focus: focus comes to the close button, so
    // Escape works at once.
    expect(await askMode(app, 'fullscreen')).toBe('fullscreen')
    await page.waitForFunction(
      () => document.activeElement?.getAttribute('data-testid') === 'app-mode-close',
    )
    await page.keyboard.press('Escape')
    await expect.poll(() => app.locator('#mode').textContent()).toBe('inline')

    // The close button does the same.
    expect(await askMode(app, 'fullscreen')).toBe('fullscreen')
    await page.getByTestId('app-mode-close').click()
    await expect.poll(() => app.locator('#mode').textContent()).toBe('inline')
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })

  it('floats an App in a panel that stays in view while the transcript scrolls', async () => {
    const { daemon, page, errors } = await shellWith()
    const app = await showApp(page)
    await markApp(app)
    // Enough text below the App for the transcript to scroll well past it.
    for (let run = 0; run < 8; run += 1) {
      expect((await daemon.cli(['call', 'mcp_modes_tall_text', '{}'])).code).toBe(0)
    }
    const transcript = page.getByTestId('transcript')

    expect(await askMode(app, 'pip')).toBe('pip')
    await expect
      .poll(() => transcript.evaluate((node) => node.scrollHeight - node.clientHeight))
      .toBeGreaterThan(1200)
    await expect.poll(() => app.locator('#mode').textContent()).toBe('pip')
    const viewport = page.viewportSize() ?? { width: 0, height: 0 }
    await page.locator('[data-testid="app-stage"][data-mode="pip"]').waitFor()
    const panel = await frameBox(page)
    expect(panel.width).toBeLessThanOrEqual(24 * 16)
    expect(panel.x + panel.width).toBeLessThanOrEqual(viewport.width)
    expect(panel.y + panel.height).toBeLessThanOrEqual(viewport.height)
    const context = await hostContext(app)
    expect(context.containerDimensions).toEqual({
      width: await page.getByTestId('app-container').evaluate((node) => node.clientWidth),
      maxHeight: 480,
    })

    // Scrolled to either end, the transcript moves under the panel; the panel stays put, on top.
    const note = page.getByTestId('app-away')
    const seen: number[] = []
    for (const end of ['top', 'bottom'] as const) {
      await transcript.evaluate((node, end) => {
        node.scrollTop = end === 'top' ? 0 : node.scrollHeight
      }, end)
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)))
      seen.push((await note.boundingBox())?.y ?? Number.NaN)
      expect(await frameBox(page)).toEqual(panel)
      expect(
        await drawnAt(
          page,
          '[data-testid="app-frame"]',
          panel.x + panel.width / 2,
          panel.y + panel.height / 2,
        ),
      ).toBe(true)
    }
    expect(Math.abs((seen[0] ?? 0) - (seen[1] ?? 0))).toBeGreaterThan(1000)
    expect(await appMark(app)).toBe('kept')

    // The panel's bar puts it back on its card.
    await page.getByTestId('app-mode-close').click()
    await expect.poll(() => app.locator('#mode').textContent()).toBe('inline')
    expect(await appMark(app)).toBe('kept')
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })

  it('keeps an App inline when it asks for a mode it did not declare', async () => {
    const { page, errors } = await shellWith()
    const app = await showApp(page, 'fullscreen_only_app')
    // The WebShell offers all three; this App declared only inline and fullscreen.
    expect((await hostContext(app)).availableDisplayModes).toEqual(['inline', 'fullscreen', 'pip'])
    expect(await askMode(app, 'pip')).toBe('inline')
    expect(await page.getByTestId('app-stage').getAttribute('data-mode')).toBe('inline')
    expect(await app.locator('#mode').textContent()).toBe('inline')
    // A declared mode is granted, and while full screen an undeclared one changes nothing.
    expect(await askMode(app, 'fullscreen')).toBe('fullscreen')
    expect(await askMode(app, 'pip')).toBe('fullscreen')
    expect(await page.getByTestId('app-stage').getAttribute('data-mode')).toBe('fullscreen')
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })

  it('gives the place out of the transcript to the App that asked last', async () => {
    const { page, errors } = await shellWith()
    const first = await showApp(page, 'modes_app', 0)
    const second = await showApp(page, 'modes_app', 1)
    expect(await askMode(first, 'fullscreen')).toBe('fullscreen')
    expect(await askMode(second, 'pip', true)).toBe('pip')
    // The first App is back on its card and told so; only the second is out.
    await expect.poll(() => first.locator('#mode').textContent()).toBe('inline')
    await expect.poll(() => second.locator('#mode').textContent()).toBe('pip')
    const stages = page.getByTestId('app-stage')
    expect(await stages.nth(0).getAttribute('data-mode')).toBe('inline')
    expect(await stages.nth(1).getAttribute('data-mode')).toBe('pip')
    // Its card says where it went, and brings it back.
    await page.getByTestId('app-away').getByRole('button', { name: 'Show it here' }).click()
    await expect.poll(() => second.locator('#mode').textContent()).toBe('inline')
    expect(await page.locator('.transcript-app-away').count()).toBe(0)
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })

  it('tells an App before its frame goes, whether it is full screen or floating', async () => {
    const { page, errors } = await shellWith()
    // The fixture App answers a teardown by calling `peek` first: that request, seen by the
    // WebShell page, marks the moment the App heard it. Frames removed are timed too.
    await page.addInitScript(() => {
      const record = window as unknown as { heard: { at: number; mode: string | null }[] }
      record.heard = []
      window.addEventListener('message', (event: MessageEvent) => {
        const data = event.data as { method?: unknown; params?: { name?: unknown } } | null
        if (data?.method !== 'tools/call' || data.params?.name !== 'peek') return
        const stage = document.querySelector('[data-testid="app-stage"]')
        record.heard.push({ at: performance.now(), mode: stage?.getAttribute('data-mode') ?? null })
      })
    })
    await recordFrameRemovals(page)
    await page.reload()
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor()
    const record = async () => ({
      heard: await page.evaluate(() => [
        ...(window as unknown as { heard: { at: number; mode: string | null }[] }).heard,
      ]),
      removed: await frameRemovals(page),
    })

    // A second session to switch to with the browser's Forward, which a full-screen App does not
    // cover; then back to the first, where the App is shown full screen.
    await createSession(page, 'elsewhere')
    await page.goBack()
    const app = await showApp(page)
    expect(await askMode(app, 'fullscreen')).toBe('fullscreen')
    await page.goForward()
    await page.getByText('No events in this session yet').waitFor()
    const fullscreen = await record()
    expect(fullscreen.heard).toHaveLength(1)
    expect(fullscreen.heard[0]?.mode).toBe('fullscreen')
    expect(fullscreen.removed.length).toBeGreaterThan(0)
    expect(fullscreen.heard[0]?.at).toBeLessThan(fullscreen.removed[0] as number)
    // Nothing is left out of the transcript in the new session.
    expect(await page.locator('.transcript-app-away').count()).toBe(0)

    // Back in the first session, the App shown again and floated, then the session left again.
    await page.goBack()
    await page.getByRole('button', { name: 'Show the App again' }).click()
    const again = appIn(page, 0)
    await again.locator('#status').getByText('ready').waitFor({ timeout: 15_000 })
    expect(await askMode(again, 'pip')).toBe('pip')
    await page.goForward()
    await page.getByText('No events in this session yet').waitFor()
    const pip = await record()
    expect(pip.heard).toHaveLength(2)
    expect(pip.heard[1]?.mode).toBe('pip')
    const removedAfter = pip.removed.slice(fullscreen.removed.length)
    expect(removedAfter.length).toBeGreaterThan(0)
    expect(pip.heard[1]?.at).toBeLessThan(removedAfter[0] as number)
    expect(await page.locator('.transcript-app-away').count()).toBe(0)
    // The App's own refused `peek` is the only complaint.
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })

  it('tells an App the page locale, time zone, palette and its container size, and keeps them current', async () => {
    const { page, errors } = await shellWith({
      locale: 'fr-FR',
      timezoneId: 'Pacific/Auckland',
      colorScheme: 'light',
    })
    const app = await showApp(page)
    const context = await hostContext(app)
    expect(context).toMatchObject({
      locale: 'fr-FR',
      timeZone: 'Pacific/Auckland',
      platform: 'web',
      userAgent: 'Ferry WebShell',
      theme: 'light',
      displayMode: 'inline',
      availableDisplayModes: ['inline', 'fullscreen', 'pip'],
    })
    expect(context.deviceCapabilities).toEqual({
      touch: expect.any(Boolean),
      hover: expect.any(Boolean),
    })
    const container = page.getByTestId('app-container')
    expect(context.containerDimensions).toEqual({
      width: await container.evaluate((node) => node.clientWidth),
      maxHeight: 2000,
    })
    const palette = () =>
      page.evaluate(() => {
        const body = getComputedStyle(document.body)
        return { background: body.backgroundColor, text: body.color }
      })
    const light = await palette()
    expect(context.styles?.variables).toMatchObject({
      '--color-background-primary': light.background,
      '--color-text-primary': light.text,
    })
    expect(context.styles?.variables?.['--font-sans']).toContain('system-ui')

    // The OS turns dark: the theme and the palette follow, resolved to the dark colours.
    await page.emulateMedia({ colorScheme: 'dark' })
    const dark = await palette()
    expect(dark.background).not.toBe(light.background)
    await expect
      .poll(async () => (await hostContext(app)).styles?.variables?.['--color-background-primary'])
      .toBe(dark.background)
    expect((await hostContext(app)).theme).toBe('dark')
    expect((await hostContext(app)).styles?.variables?.['--color-text-primary']).toBe(dark.text)

    // Light picked in the top bar wins over the dark OS, for the App too; the system's again after.
    const theme = page.getByTestId('theme')
    await theme.selectOption('light')
    await expect.poll(async () => (await hostContext(app)).theme).toBe('light')
    expect((await hostContext(app)).styles?.variables?.['--color-background-primary']).toBe(
      light.background,
    )
    await theme.selectOption('system')
    await expect.poll(async () => (await hostContext(app)).theme).toBe('dark')

    // Another window size: the container's new width reaches the App.
    const before = context.containerDimensions?.width ?? 0
    await page.setViewportSize({ width: 1000, height: 720 })
    await expect
      .poll(async () => (await hostContext(app)).containerDimensions?.width)
      .not.toBe(before)
    expect((await hostContext(app)).containerDimensions?.width).toBe(
      await container.evaluate((node) => node.clientWidth),
    )
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })

  it('keeps the height an App asks for within the bounds of each mode', async () => {
    const { page, errors } = await shellWith()
    const app = await showApp(page)
    const frame = page.locator('[data-testid="app-frame"]')
    /** Asks for 5000 px; the mode request after it is answered only once the size was handled. */
    const grow = async (mode: 'inline' | 'fullscreen' | 'pip') => {
      await clickInApp(app, 'grow')
      await expect.poll(() => app.locator('#out-grow').textContent()).toBe('sent')
      await app.locator('#out-grow').evaluate((node) => (node.textContent = ''))
      expect(await askMode(app, mode)).toBe(mode)
      return (await frameBox(page)).height
    }
    expect(await grow('inline')).toBe(2000)
    expect(await askMode(app, 'pip')).toBe('pip')
    expect(await grow('pip')).toBe(480)
    expect(await askMode(app, 'fullscreen')).toBe('fullscreen')
    const viewport = page.viewportSize() ?? { width: 0, height: 0 }
    const filled = await grow('fullscreen')
    expect(filled).toBeLessThanOrEqual(viewport.height)
    expect(filled).toBeGreaterThan(viewport.height - 80)
    expect(await frame.evaluate((node) => (node as HTMLElement).style.height)).toBe('')
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })
})
