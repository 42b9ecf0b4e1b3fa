// The Protocol pane as a tool, at 1280×800 and at 390×844, over two servers' traffic: a search
// over methods and messages with filters by method, server, direction and errors and the count of
// what matches, a pinned row kept on top, the rows shown exported as JSON lines, and a request
// replayed with params edited as JSON (bad JSON and bad params each said, with what to fix).

import type { Download, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TraceEntry, TraceResponse } from '../../daemon/src/protocol/index.js'
import { cleanup, fixture, type Daemon } from '../../daemon/test/harness.js'
import { startInProcess } from '../../daemon/test/in-process.js'
import { openPage, useBrowser } from './browser.js'

const browser = useBrowser()
const json = { 'content-type': 'application/json' }
let daemon: Daemon

beforeAll(async () => {
  daemon = await startInProcess({ mcpServers: { fx: fixture([]), fy: fixture([]) } })
  await Promise.all([daemon.waitForStatus('fx', 'ready'), daemon.waitForStatus('fy', 'ready')])
})
afterAll(cleanup)

async function post(path: string, body: unknown): Promise<number> {
  const response = await daemon.api(path, {
    method: 'POST',
    headers: json,
    body: JSON.stringify(body),
  })
  await response.text()
  return response.status
}

async function lastCall(server: string): Promise<TraceEntry | undefined> {
  const { entries } = (await (await daemon.api(`/servers/${server}/trace`)).json()) as TraceResponse
  return entries.filter((e) => e.kind === 'request' && e.method === 'tools/call').at(-1)
}

/** One line of the export, as far as the test reads it. */
interface ExportLine {
  time: string
  server: string
  direction: string
  message: {
    method?: string
    params?: { arguments?: unknown }
    error?: { message: string }
  }
}

/** A download's content, read through the browser's connection. */
async function downloaded(download: Download): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/** The story at one size; `mark` tells this round's messages from the last one's. */
async function exercise(page: Page, mark: string): Promise<void> {
  const pane = page.getByTestId('protocol-pane')
  const rows = pane.getByTestId('trace-row')
  const count = pane.getByTestId('trace-count')
  // Only what comes from here on.
  await pane.getByRole('button', { name: 'Clear' }).click()
  await expect.poll(() => rows.count()).toBe(0)

  expect(await post('/call', { tool: 'mcp_fx_echo', arguments: { text: `alpha ${mark}` } })).toBe(
    200,
  )
  expect(await post('/call', { tool: 'mcp_fy_echo', arguments: { text: `beta ${mark}` } })).toBe(
    200,
  )
  expect(await post('/resources/read', { server: 'fy', uri: `fixture://missing-${mark}` })).toBe(
    404,
  )
  const fyCall = pane.locator(
    '[data-testid="trace-row"][data-server="fy"][data-method="tools/call"]',
  )
  await pane
    .locator('[data-server="fy"][data-method="resources/read"] [data-testid="latency"]')
    .waitFor()
  await fyCall.getByTestId('latency').waitFor()
  const total = await rows.count()
  expect(await count.textContent()).toBe(`${total} messages`)

  // The search looks into the messages; the count says how many match of how many.
  const search = pane.getByTestId('trace-search')
  await search.fill(`ALPHA ${mark}`)
  await expect.poll(() => count.textContent()).toBe(`1 of ${total} messages`)
  expect(await rows.getAttribute('data-server')).toBe('fx')
  await search.fill('')

  // Server and method together.
  await pane.getByTestId('trace-server').selectOption('fy')
  await pane.getByTestId('trace-method').selectOption('tools/call')
  await expect.poll(() => count.textContent()).toBe(`1 of ${total} messages`)
  expect(await rows.textContent()).toContain('tools/call')
  await pane.getByTestId('trace-server').selectOption('')
  await pane.getByTestId('trace-method').selectOption('')

  // Direction: only what the servers sent first (none of these rows: every one is Ferry's request).
  await pane.getByTestId('trace-direction').selectOption('out')
  await expect.poll(() => count.textContent()).toBe(`${total} of ${total} messages`)
  await pane.getByTestId('trace-direction').selectOption('in')
  await expect.poll(() => count.textContent()).toBe(`0 of ${total} messages`)
  await pane.getByTestId('trace-direction').selectOption('any')

  // Pinned first: errors only then shows the failed read under the pinned call.
  await fyCall.getByTestId('trace-pin').click()
  await pane.getByTestId('trace-errors').check()
  await expect.poll(() => count.textContent()).toBe(`2 of ${total} messages`)
  expect(await rows.nth(1).getAttribute('data-method')).toBe('resources/read')
  await expect.poll(() => rows.count()).toBe(2)
  expect(await rows.first().getAttribute('data-pinned')).toBe('true')
  expect(await rows.first().getAttribute('data-method')).toBe('tools/call')

  // The export holds what is shown, one message a line, oldest first.
  const download = page.waitForEvent('download')
  await pane.getByTestId('trace-export').click()
  const saved = await download
  expect(saved.suggestedFilename()).toMatch(/^ferry-protocol-all-servers-.+\.jsonl$/)
  const text = await downloaded(saved)
  const lines = text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as ExportLine)
  expect(lines.map((line) => [line.server, line.direction, line.message.method ?? null])).toEqual([
    ['fy', 'out', 'tools/call'],
    ['fy', 'in', null],
    ['fy', 'out', 'resources/read'],
    ['fy', 'in', null],
  ])
  expect(lines[0]?.message.params?.arguments).toEqual({ text: `beta ${mark}` })
  expect(lines[3]?.message.error?.message).toContain(`missing-${mark}`)
  for (const line of lines) expect(Date.parse(line.time)).not.toBeNaN()
  await fyCall.getByTestId('trace-pin').click()
  await pane.getByTestId('trace-errors').uncheck()

  // Edit and replay: bad JSON and bad params are each said, then the edited params are sent.
  const fxCall = pane.locator(
    '[data-testid="trace-row"][data-server="fx"][data-method="tools/call"]',
    // Its request, kept in the row collapsed or not; the replay's row holds the edited words.
    { hasText: `alpha ${mark}` },
  )
  await fxCall.locator('summary').click()
  await fxCall.getByTestId('replay-edit').click()
  const params = fxCall.getByTestId('replay-params')
  expect(JSON.parse(await params.inputValue())).toMatchObject({
    name: 'echo',
    arguments: { text: `alpha ${mark}` },
  })
  const status = fxCall.getByTestId('replay-status')
  await params.fill('{"name": "echo",')
  await fxCall.getByTestId('replay-send-edited').click()
  expect(await status.textContent()).toMatch(
    /^The params are not valid JSON \(.+\)\. Fix the JSON and send again\.$/,
  )
  await params.fill('{"name": "echo", "argumnets": {}}')
  await fxCall.getByTestId('replay-send-edited').click()
  await expect
    .poll(() => status.textContent())
    .toBe('Not replayed: params: Unrecognized key: "argumnets" (for tools/call)')
  const before = (await lastCall('fx'))?.seq ?? 0
  await params.fill(JSON.stringify({ name: 'echo', arguments: { text: `edited ${mark}` } }))
  await fxCall.getByTestId('replay-send-edited').click()
  await expect.poll(() => status.getAttribute('data-state')).toBe('done')
  expect(await status.textContent()).toBe('tools/call sent again. Its messages are at the top.')
  const replayed = await lastCall('fx')
  expect(replayed?.seq).toBeGreaterThan(before)
  expect(replayed?.message).toMatchObject({
    params: { name: 'echo', arguments: { text: `edited ${mark}` } },
  })
  // The replay's messages are in the pane, and the call in the transcript.
  await search.fill(`edited ${mark}`)
  await expect.poll(() => count.textContent()).toBe(`1 of ${total + 1} messages`)
  await page
    .getByTestId('result')
    .filter({ hasText: `edited ${mark}` })
    .waitFor()
  await search.fill('')
}

describe('the Protocol pane as a tool', () => {
  it('searches, filters, pins, exports and replays at 1280×800 and at 390×844', async () => {
    const { page, errors } = await openPage(browser())
    page.setDefaultTimeout(15_000)
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor()
    await page.getByTestId('server-all').click()
    await page.getByTestId('tab-protocol').click()
    await page.getByTestId('protocol-pane').waitFor()
    expect(await page.getByTestId('pane-scope').textContent()).toBe('all servers')

    await exercise(page, 'wide')
    await page.setViewportSize({ width: 390, height: 844 })
    await exercise(page, 'narrow')
    // Nothing of the pane is wider than the phone's screen.
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    )
    expect(overflow).toBeLessThanOrEqual(0)

    // The browser logs each refused replay (400), one a round; nothing else.
    const refused = errors.filter((message) => message.includes('status of 400'))
    expect(refused).toHaveLength(2)
    expect(errors.length - refused.length, errors.join('\n')).toBe(0)
    await page.close()
  })
})
