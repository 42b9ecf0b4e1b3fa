// What an MCP Inspector user expects of resources and Apps, in a real browser at a desktop and a
// phone size: Markdown resources rendered by the results' sanitising renderer with View Source
// (hostile Markdown inert), a small textual blob shown as its text with its download kept (in the
// Resources pane and in a tool result), large and binary blobs a download, and the host's Maximize
// for an App that declares no display modes, which Escape undoes without the App changing mode.

import type { Frame, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanup, type Daemon } from '../../daemon/test/harness.js'
import { startInProcess } from '../../daemon/test/in-process.js'
import { BIG_TEXT, CONFIG_JSON, GUIDE_MD, resourceViewsServer } from '../fixtures/resource-views.js'
import { appFrame, appIn, clickInApp } from './app-frames.js'
import { openPage, useBrowser } from './browser.js'

const browser = useBrowser()

const SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]

let daemon: Daemon
let page: Page
let errors: string[]

beforeAll(async () => {
  const views = resourceViewsServer()
  daemon = await startInProcess(
    { mcpServers: { views: { command: 'served-in-memory', versionNegotiation: 'legacy' } } },
    { inMemory: { views: () => views().server } },
  )
  await daemon.waitForStatus('views', 'ready')
  ;({ page, errors } = await openPage(browser()))
  // Under the test's own limit, so a wait that fails names what it waited for.
  page.setDefaultTimeout(15_000)
  await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
  await page.locator('[data-testid="connection"][data-state="live"]').waitFor()
})

afterAll(async () => {
  await page?.close()
  await cleanup()
})

/** The Resources pane of the fixture server, with `uri` read and shown. */
async function read(uri: string) {
  if ((await page.getByTestId('resources-pane').count()) === 0) {
    await page
      .getByTestId('server-views')
      .getByRole('button', { name: 'views', exact: true })
      .click()
    await page.getByTestId('tab-resources').click()
    await page.getByTestId('resources-pane').waitFor()
  }
  await page.locator(`[data-testid="resource"][data-uri="${uri}"]`).click()
  const shown = page.locator(`[data-testid="resource-shown"][data-uri="${uri}"][data-state="read"]`)
  await shown.waitFor()
  return shown
}

/** Whether the element lies within the page's width (nothing to scroll sideways to reach it). */
async function withinWidth(page: Page, selector: string): Promise<boolean> {
  const box = await page.locator(selector).first().boundingBox()
  const width = page.viewportSize()?.width ?? 0
  return box !== null && box.x >= 0 && box.x + box.width <= width
}

describe.each(SIZES)('at $width×$height', (size) => {
  it('renders Markdown resources as tool results are, with their source a toggle away', async () => {
    await page.setViewportSize(size)
    const guide = await read('docs://guide.md')
    const part = guide.locator('[data-testid="resource-text"][data-view="rendered"]')
    const rendered = part.locator('.markdown')
    await rendered.waitFor()
    expect(await rendered.locator('h1').textContent()).toBe('Guide')
    expect(await rendered.locator('strong').textContent()).toBe('this')
    const link = rendered.getByRole('link', { name: 'the site' })
    expect(await link.getAttribute('href')).toBe('https://example.com/')
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer')
    expect(await withinWidth(page, '[data-testid="view-source"]')).toBe(true)

    // View Source shows the text as the server sent it; pressed again, rendered once more.
    const toggle = guide.getByTestId('view-source')
    await toggle.click()
    const source = guide.locator('[data-testid="resource-text"][data-view="source"]')
    expect(await toggle.getAttribute('aria-pressed')).toBe('true')
    expect(await source.locator('pre').textContent()).toBe(GUIDE_MD)
    expect(await source.locator('.markdown').count()).toBe(0)
    await toggle.click()
    await rendered.waitFor()
    expect(await toggle.getAttribute('aria-pressed')).toBe('false')

    // No type, but a .md path: rendered too.
    const notes = await read('docs://notes.md')
    await notes.locator('[data-view="rendered"] .markdown li').first().waitFor()
    expect(await notes.locator('.markdown li').allTextContents()).toEqual(['one', 'two'])
    expect(errors, errors.join('\n')).toEqual([])
  })

  it('keeps hostile Markdown in a resource inert', async () => {
    await page.setViewportSize(size)
    const hostile = await read('docs://hostile.md')
    const rendered = hostile.locator('[data-view="rendered"] .markdown')
    await rendered.locator('h1').waitFor()
    // Raw HTML is shown as text, the javascript: link is no link, and no image is fetched.
    expect(await rendered.textContent()).toContain('<script>window.pwned = "script"</script>')
    expect(await rendered.textContent()).toContain('onerror=')
    expect(await rendered.locator('script, img, iframe, [onerror]').count()).toBe(0)
    expect(await rendered.locator('a[href^="javascript"]').count()).toBe(0)
    expect(await rendered.locator('.md-dropped-link').textContent()).toBe('click me')
    expect(await rendered.locator('a.md-image-link').getAttribute('href')).toBe(
      'http://127.0.0.1:9/pixel.png',
    )
    expect(await page.evaluate(() => (window as { pwned?: unknown }).pwned)).toBeUndefined()
    expect(errors, errors.join('\n')).toEqual([])
  })

  it('shows a small textual blob as its text with its download kept, and others as a download', async () => {
    await page.setViewportSize(size)
    const config = await read('blob://config.json')
    const blob = config.getByTestId('resource-blob')
    expect(await blob.locator('.result-meta').textContent()).toBe(
      'blob shown as text, 30 bytes, application/json',
    )
    expect(await blob.locator('pre').textContent()).toBe(
      JSON.stringify(JSON.parse(CONFIG_JSON), null, 2),
    )
    // The download holds the blob's own bytes, not the text as shown.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      blob.getByTestId('download').click(),
    ])
    expect(download.suggestedFilename()).toBe('config.json')
    const chunks: Buffer[] = []
    for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer)
    expect(Buffer.concat(chunks).toString()).toBe(CONFIG_JSON)

    // Over the bound, or not text: a download only.
    for (const [uri, meta] of [
      ['blob://big.txt', `binary, ${BIG_TEXT.length.toLocaleString('en-US')} bytes, text/plain`],
      ['blob://data.bin', 'binary, 4 bytes, application/octet-stream'],
    ] as const) {
      const other = (await read(uri)).getByTestId('resource-blob')
      expect(await other.locator('.result-meta').textContent()).toBe(meta)
      expect(await other.locator('pre').count()).toBe(0)
      expect(await other.getByTestId('download').isVisible()).toBe(true)
    }
    expect(errors, errors.join('\n')).toEqual([])
  })
})

describe('a tool result that embeds a small JSON blob', () => {
  it('shows the blob as its text on the card', async () => {
    const response = await daemon.api('/call', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'mcp_views_embedded_json', arguments: {} }),
    })
    expect(response.status).toBe(200)
    const resource = page
      .locator('[data-testid="call-card"][data-state="done"]')
      .filter({ hasText: 'blob://rows.json' })
      .locator('[data-testid="result"] .result-resource')
    for (const size of SIZES) {
      await page.setViewportSize(size)
      await resource.scrollIntoViewIfNeeded()
      expect(await resource.locator('.result-meta').textContent()).toBe(
        'application/json, blob of 10 bytes',
      )
      expect(await resource.locator('pre').textContent()).toBe('{\n  "rows": 3\n}')
    }
    expect(errors, errors.join('\n')).toEqual([])
  })
})

/** What the host fixture App was last told of its place. */
async function hostContext(app: Frame) {
  return JSON.parse((await app.locator('#host-context').textContent()) ?? '{}') as {
    displayMode?: string
    containerDimensions?: { width?: number; height?: number; maxHeight?: number }
  }
}

function focusedTestId(): Promise<string | null> {
  return page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null)
}

describe('Maximize for an App that declares no display modes', () => {
  it('fills the tab from the keyboard without the App changing mode, and Escape brings it back', async () => {
    await page.setViewportSize(SIZES[0] ?? { width: 1280, height: 800 })
    const response = await daemon.api('/call', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'mcp_views_plain_app', arguments: {} }),
    })
    expect(response.status).toBe(200)
    await appIn(page).locator('#status').getByText('ready').waitFor()
    const app = await appFrame(page)
    const maximize = page.getByRole('button', { name: 'Maximize ui://views/plain from views' })
    const stage = page.getByTestId('app-stage')
    const frame = page.getByTestId('app-frame')

    for (const size of SIZES) {
      await page.setViewportSize(size)
      // A native button on the card: reached and pressed from the keyboard.
      await maximize.focus()
      await page.keyboard.press('Enter')
      await page.locator('[data-testid="app-stage"][data-mode="maximized"]').waitFor()
      await expect.poll(focusedTestId).toBe('app-mode-close')
      await expect.poll(async () => (await frame.boundingBox())?.width).toBe(size.width)
      const box = await frame.boundingBox()
      expect(box?.x).toBe(0)
      expect((box?.y ?? 0) + (box?.height ?? 0)).toBeCloseTo(size.height, 0)
      expect(box?.height).toBeGreaterThan(size.height - 80)
      expect(await page.getByTestId('app-mode-close').textContent()).toBe('Restore')
      expect(await maximize.count()).toBe(0)
      // The App is not asked to change mode: it stays inline, in a container that grew.
      const container = await page
        .getByTestId('app-container')
        .evaluate((node) => ({ width: node.clientWidth, height: node.clientHeight }))
      await expect.poll(async () => (await hostContext(app)).containerDimensions).toEqual(container)
      expect((await hostContext(app)).displayMode).toBe('inline')
      expect(await app.locator('#mode').textContent()).toBe('inline')
      // Asking for inline, the mode it believes it is in, changes nothing.
      await clickInApp(app, 'inline')
      // The App shows `…` until the WebShell's answer comes.
      await expect.poll(() => app.locator('#out-mode').textContent()).toBe('inline')
      expect(await stage.getAttribute('data-mode')).toBe('maximized')

      await page.getByTestId('app-mode-close').focus()
      await page.keyboard.press('Escape')
      await page.locator('[data-testid="app-stage"][data-mode="inline"]').waitFor()
      await expect.poll(focusedTestId).toBe('app-maximize')
      await expect
        .poll(async () => (await hostContext(app)).containerDimensions?.maxHeight)
        .toBe(2000)
    }
    expect(errors, errors.join('\n')).toEqual([])
  })
})
