// The WebShell in daily use, in a real browser at 1280×800 and 390×844: the transcript follows new
// events while the reader is at the bottom (through questions answered on the way) and keeps their
// place when they scroll up, saying how many rows came below; every kind of question fits the bar
// from 360 px up, with a long unbreakable name; kinds of event line can be hidden, with the count
// of lines hidden and the choice kept; a sampling reply reaches the server with the model name and
// stop reason set in its form; and the copy: counts that agree, one clock format, the pane tabs on
// one line, a nested array's inputs as wide as the form.

import { McpServer } from '@modelcontextprotocol/server'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { writeStoredSession } from '../../daemon/src/bench/stored-session.js'
import type { ToolInfo, TranscriptEvent } from '../../daemon/src/protocol/index.js'
import { cleanup, fixture, tempDir } from '../../daemon/test/harness.js'
import { startInProcess, type InProcessDaemon } from '../../daemon/test/in-process.js'
import { openPage, useBrowser } from './browser.js'

const browser = useBrowser()

/** A server name no line can break inside, as some people name theirs. */
const LONG = 'fixture_server_with_a_long_unbreakable_name_that_must_wrap'

const SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const

/** A tool whose form nests arrays two deep, in an object and in an array. */
function formsServer(): McpServer {
  const server = new McpServer({ name: 'forms', version: '1.0.0' })
  server.registerTool(
    'nested',
    {
      description: 'Takes arrays inside arrays.',
      inputSchema: z.object({
        matrix: z.array(z.array(z.string())),
        legs: z.array(z.object({ place: z.string(), notes: z.array(z.string()) })),
      }),
    },
    async () => ({ content: [{ type: 'text', text: 'ok' }] }),
  )
  return server
}

/** A stored session with lines of every kind the filter sorts, between two calls. */
function* kindsSession(): Generator<TranscriptEvent> {
  const time = new Date().toISOString()
  const client = { id: 'stored', kind: 'cli' as const, label: 'ferry call (pid 1)' }
  let seq = 0
  const call = (callId: string): TranscriptEvent[] => [
    {
      seq: ++seq,
      time,
      client,
      type: 'call.requested',
      callId,
      tool: 'mcp_fx_echo',
      server: 'fx',
      serverTool: 'echo',
      arguments: { text: callId },
    },
    {
      seq: ++seq,
      time,
      client,
      type: 'call.result',
      callId,
      result: { content: [{ type: 'text', text: callId }] },
      display: { type: 'plain' },
    },
  ]
  yield* call('first')
  yield { seq: ++seq, time, client, type: 'resource.subscribed', server: 'fx', uri: 'fx://a' }
  for (let i = 0; i < 3; i++) {
    yield { seq: ++seq, time, client: null, type: 'resource.updated', server: 'fx', uri: 'fx://a' }
  }
  for (let i = 0; i < 2; i++) {
    yield {
      seq: ++seq,
      time,
      client: null,
      type: 'server.log',
      server: 'fx',
      callId: null,
      level: 'info',
      logger: null,
      data: `log line ${i}`,
    }
  }
  yield* call('last')
}

let daemon: InProcessDaemon
/** The qualified names of the long-named server's tools, by the server's own name. */
const longTool = new Map<string, string>()

beforeAll(async () => {
  const stateDir = await tempDir('ferry-state-')
  await writeStoredSession(stateDir, 'kinds', kindsSession())
  daemon = await startInProcess(
    {
      mcpServers: {
        [LONG]: fixture(['--elicit-tool', '--input-tools', '--log-tool'], { trust: false }),
        forms: { command: 'served-in-memory', versionNegotiation: 'legacy', trust: true },
      },
    },
    { stateDir, inMemory: { forms: () => formsServer().server } },
  )
  await daemon.waitForStatus(LONG, 'ready')
  await daemon.waitForStatus('forms', 'ready')
  const tools = (await (await daemon.api('/tools')).json()) as ToolInfo[]
  for (const tool of tools) if (tool.server === LONG) longTool.set(tool.tool, tool.name)
})
afterAll(cleanup)

/** Calls a tool of the long-named server over REST, allowed up front unless `ask`. */
async function call(
  tool: string,
  args: Record<string, unknown> = {},
  options: { ask?: boolean; id?: string } = {},
): Promise<Record<string, unknown>> {
  const response = await daemon.api('/call', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      tool: longTool.get(tool) ?? tool,
      arguments: args,
      ...(options.ask === true ? {} : { yes: true }),
      ...(options.id === undefined ? {} : { id: options.id }),
    }),
  })
  return (await response.json()) as Record<string, unknown>
}

async function openShell(
  size: { width: number; height: number },
  query = '',
): Promise<{ page: Page; errors: string[] }> {
  const opened = await openPage(browser())
  await opened.page.setViewportSize(size)
  await opened.page.goto(`${daemon.info.url}${query}#token=${daemon.info.token}`)
  await opened.page.locator('[data-testid="connection"][data-state="live"]').waitFor()
  return opened
}

/** Waits until the tab shows every event the default session has stored. */
async function caughtUp(page: Page): Promise<void> {
  const last = (await daemon.events()).at(-1)?.seq ?? 0
  await page.locator(`[data-testid="transcript"][data-last-seq="${last}"]`).waitFor()
}

/** Waits until the transcript is scrolled to its end with its newest row in view. */
async function atNewest(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const scroller = document.querySelector<HTMLElement>('[data-testid="transcript"]')
    if (scroller === null) return false
    const rows = [...scroller.querySelectorAll<HTMLElement>('[data-seq]')]
    const newest = rows.reduce<HTMLElement | undefined>(
      (best, row) =>
        best === undefined || Number(row.dataset.seq) > Number(best.dataset.seq) ? row : best,
      undefined,
    )
    if (newest === undefined) return false
    const box = scroller.getBoundingClientRect()
    const row = newest.getBoundingClientRect()
    return (
      scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight <= 2 &&
      row.top >= box.top - 1 &&
      row.bottom <= box.bottom + 1
    )
  })
}

/** The row at the top of the transcript's viewport: its seq and where it is. */
function topRow(page: Page): Promise<{ seq: string; offset: number }> {
  return page.evaluate(() => {
    const scroller = document.querySelector<HTMLElement>('[data-testid="transcript"]')!
    const top = scroller.getBoundingClientRect().top
    const rows = [...scroller.querySelectorAll<HTMLElement>('[data-seq]')]
      .map((row) => ({ seq: row.dataset.seq ?? '', rect: row.getBoundingClientRect() }))
      .filter(({ rect }) => rect.bottom > top)
      .sort((a, b) => a.rect.top - b.rect.top)
    const first = rows[0]!
    return { seq: first.seq, offset: Math.round(first.rect.top - top) }
  })
}

describe('the WebShell in daily use', () => {
  it('follows new events through answered questions, keeps the place when scrolled up, and says how many came', async () => {
    const { page, errors } = await openShell(SIZES[0])
    const dialog = page.getByTestId('input-dialog')
    const armed = page.locator('[data-testid="question-bar"][data-armed="true"]')
    const jump = page.getByTestId('transcript-jump')
    for (const size of SIZES) {
      await page.setViewportSize(size)
      await Promise.all(Array.from({ length: 8 }, (_, i) => call('echo', { text: `fill ${i}` })))
      await caughtUp(page)
      await atNewest(page)

      // A sampling request, answered in the bar with a model name and a stop reason of the
      // person's: the server receives both.
      const sampled = call('ask_person', { kind: 'sampling' })
      // Rows that arrive while the question takes room below the transcript are followed too.
      await dialog.waitFor()
      await Promise.all([1, 2].map((i) => call('echo', { text: `during ${i}` })))
      await caughtUp(page)
      await atNewest(page)
      await dialog.getByTestId('input-reply').fill(`Hello at ${size.width}`)
      await dialog.getByTestId('input-reply-model').fill('person-1')
      await dialog.getByTestId('input-reply-stop').fill('stopSequence')
      await armed.waitFor()
      await dialog.getByRole('button', { name: 'Send reply' }).click()
      const received = (await sampled).result as { structuredContent: { received: unknown } }
      expect(received.structuredContent.received).toEqual({
        role: 'assistant',
        content: { type: 'text', text: `Hello at ${size.width}` },
        model: 'person-1',
        stopReason: 'stopSequence',
      })
      if (size === SIZES[0]) {
        // A form question too, as in the report.
        const asked = call('ask_user')
        await dialog.getByLabel('Your name').fill('Ada')
        await armed.waitFor()
        await dialog.getByRole('button', { name: 'Accept' }).click()
        await asked
      }
      // More calls: each lands in view.
      await Promise.all([1, 2, 3].map((i) => call('echo', { text: `after ${i}` })))
      await caughtUp(page)
      await atNewest(page)

      // Scrolled up to read, the place is kept while rows arrive below, and they are counted.
      await page.getByTestId('transcript').evaluate((element) => element.scrollBy(0, -400))
      await page.locator('[data-testid="transcript"][data-following="false"]').waitFor()
      const before = await topRow(page)
      await Promise.all([1, 2].map((i) => call('echo', { text: `unseen ${i}` })))
      await caughtUp(page)
      await expect.poll(() => jump.textContent()).toBe('2 new ↓')
      expect(await topRow(page)).toEqual(before)

      // The way back goes to the newest rows, and new ones are followed again.
      await jump.click()
      await atNewest(page)
      expect(await jump.count()).toBe(0)
      await call('echo', { text: 'followed' })
      await caughtUp(page)
      await atNewest(page)
    }
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })

  it('fits every kind of question in the bar from 360 px up, with a long unbreakable name', async () => {
    const { page, errors } = await openShell(SIZES[0])
    const bar = page.getByTestId('question-bar')
    const questions: {
      kind: string
      ask(): Promise<unknown>
      shown: string
      end(): Promise<unknown>
    }[] = [
      {
        kind: 'confirmation',
        ask: () => call('slow', { steps: 1, delayMs: 0 }, { ask: true, id: 'confirm-fit' }),
        shown: '[data-testid="confirmation"]',
        end: () =>
          daemon.api('/calls/confirm-fit/answer', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ outcome: 'deny' }),
          }),
      },
      ...(['form', 'url', 'sampling'] as const).map((kind) => ({
        kind,
        ask: () =>
          kind === 'form'
            ? call('ask_user')
            : call('ask_person', { kind: kind === 'url' ? 'url' : 'sampling' }),
        shown: `[data-testid="input-dialog"][data-kind="${kind}"]`,
        end: async () => {
          const id = await page.getByTestId('input-dialog').getAttribute('data-input-id')
          return daemon.api(`/inputs/${id}/answer`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ action: 'cancel' }),
          })
        },
      })),
    ]
    for (const question of questions) {
      const asked = question.ask()
      await bar.locator(question.shown).waitFor()
      for (const width of [360, 390, 1280]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 800 })
        const overflow = await bar.evaluate((element) => {
          const problems: string[] = []
          const box = element.getBoundingClientRect()
          const name = (node: Element) =>
            `${node.tagName.toLowerCase()}${node.getAttribute('data-testid') === null ? '' : `[${node.getAttribute('data-testid')}]`}`
          for (const node of [element, ...element.querySelectorAll('*')]) {
            const rect = node.getBoundingClientRect()
            if (rect.width === 0 && rect.height === 0) continue
            if (rect.left < box.left - 1 || rect.right > box.right + 1) {
              problems.push(
                `${name(node)} spans ${rect.left}–${rect.right} in ${box.left}–${box.right}`,
              )
            }
            const style = getComputedStyle(node)
            if (style.overflowX !== 'visible' && node.scrollWidth > node.clientWidth + 1) {
              problems.push(
                `${name(node)} scrolls sideways: ${node.scrollWidth} > ${node.clientWidth}`,
              )
            }
          }
          // The first line of the question and "Edit as JSON" are on screen.
          const first = element.querySelector(
            '[data-testid="confirmation"] p, [data-testid="input-dialog"] h2',
          )
          const edit = [...element.querySelectorAll('button')].find(
            (button) => button.textContent === 'Edit as JSON',
          )
          for (const node of [first, edit]) {
            if (node === null || node === undefined) continue
            const rect = node.getBoundingClientRect()
            if (rect.left < 0 || rect.right > window.innerWidth) {
              problems.push(`${name(node)} is off screen: ${rect.left}–${rect.right}`)
            }
          }
          if (first === null) problems.push('no first line')
          return problems
        })
        expect(overflow, `${question.kind} at ${width} px`).toEqual([])
      }
      await question.end()
      await asked
      await bar.waitFor({ state: 'detached' })
      await page.setViewportSize(SIZES[0])
    }
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })

  it('hides the kinds of event line the person chose, says how many lines, and keeps the choice', async () => {
    // Chosen at one size, kept across a reload at the other.
    const { page, errors } = await openShell(SIZES[0], '?session=kinds')
    const transcript = page.getByTestId('transcript')
    const loaded = () => page.locator('[data-testid="transcript"][data-last-seq="10"]').waitFor()
    await loaded()
    const lines = (event: string) => transcript.locator(`[data-event="${event}"]`).count()
    expect(await lines('resource.updated')).toBe(3)
    expect(await lines('server.log')).toBe(2)

    const filter = page.getByTestId('kind-filter')
    const hiddenText = page.getByTestId('kind-filter-hidden')
    await filter.locator('summary').click()
    const box = (kind: string) => filter.locator(`input[data-kind="${kind}"]`)
    expect(await box('updates').locator('xpath=..').textContent()).toContain(
      'Followed-resource updates (3)',
    )
    await box('updates').uncheck()
    await box('logs').uncheck()
    await expect.poll(() => lines('resource.updated')).toBe(0)
    expect(await lines('server.log')).toBe(0)
    expect(await lines('resource.subscribed')).toBe(1)
    expect(await hiddenText.textContent()).toBe(': 5 lines hidden')

    await page.setViewportSize(SIZES[1])
    await page.reload()
    await loaded()
    expect(await hiddenText.textContent()).toBe(': 5 lines hidden')
    expect(await lines('resource.updated')).toBe(0)
    expect(await lines('server.log')).toBe(0)
    await filter.locator('summary').click()
    expect(await box('updates').isChecked()).toBe(false)
    expect(await box('follows').isChecked()).toBe(true)
    await box('updates').check()
    await box('logs').check()
    await expect.poll(() => lines('resource.updated')).toBe(3)
    expect(await lines('server.log')).toBe(2)
    expect(await hiddenText.count()).toBe(0)
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })

  it('counts in agreement, writes every time one way, keeps the pane tabs on one line, and gives nested array inputs the form’s width', async () => {
    await call('emit_logs', { count: 1, text: 'one log line' })
    const { page, errors } = await openShell(SIZES[0])
    const forms = page.getByTestId('server-forms')
    await page.getByTestId(`server-${LONG}`).locator('.server-pick').click()
    await page.getByTestId('tab-logs').click()
    await page.getByTestId('log-line').first().waitFor()
    for (const size of SIZES) {
      await page.setViewportSize(size)
      expect(await forms.textContent()).toContain('· 1 tool')
      expect(await forms.textContent()).not.toContain('1 tools')

      // The pane tabs: one line, the page itself never wider than the window; at 1280 all in view.
      const tabs = await page.evaluate(() => {
        const list = document.querySelector('[role="tablist"]')!.getBoundingClientRect()
        const boxes = [...document.querySelectorAll('[role="tab"]')].map((tab) =>
          tab.getBoundingClientRect(),
        )
        return {
          tops: new Set(boxes.map((box) => Math.round(box.top))).size,
          inView: boxes.every((box) => box.left >= list.left - 1 && box.right <= list.right + 1),
          pageOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        }
      })
      expect(tabs.tops).toBe(1)
      expect(tabs.pageOverflow).toBeLessThanOrEqual(0)
      if (size.width === 1280) expect(tabs.inView).toBe(true)

      // Times in the Logs pane and in the transcript read alike, in the locale's format.
      const times = await page.evaluate(() => {
        const format = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' })
        return [...document.querySelectorAll('time')].map((time) => ({
          where: time.closest('[data-testid="logs-pane"]') === null ? 'transcript' : 'logs',
          shown: time.textContent,
          expected: time.dateTime === '' ? 'no dateTime' : format.format(new Date(time.dateTime)),
        }))
      })
      expect(times.some((time) => time.where === 'logs')).toBe(true)
      expect(times.some((time) => time.where === 'transcript')).toBe(true)
      for (const time of times) expect(time.shown, time.where).toBe(time.expected)
    }

    // A nested array's inputs keep most of the form's width at every depth.
    await page.getByTestId('tab-tools').click()
    await forms.locator('.server-pick').click()
    const tool = page.locator('[data-tool="mcp_forms_nested"]')
    await tool.locator('.tool-toggle').click()
    const form = tool.getByTestId('tool-form')
    await form.getByRole('button', { name: 'Add matrix item' }).click()
    await form.getByRole('button', { name: 'Add matrix 1 item' }).click()
    await form.getByRole('button', { name: 'Add legs item' }).click()
    await form.getByRole('button', { name: 'Add notes item' }).click()
    const width = async (label: string) =>
      (await form.getByLabel(label, { exact: true }).boundingBox())?.width ?? 0
    for (const size of [SIZES[1], SIZES[0]]) {
      await page.setViewportSize(size)
      const formWidth = (await form.boundingBox())?.width ?? 0
      expect(await width('matrix 1 1'), `at ${size.width}`).toBeGreaterThan(formWidth / 2)
      expect(await width('notes 1'), `at ${size.width}`).toBeGreaterThan(formWidth / 2)
    }
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })
})
