// WebShell benchmarks in Debian's chromium: the JavaScript a first visit loads, the first screen
// of a 10,000-event session (against an empty one), scrolling through it, and how long a stored
// event takes to reach the screen (against a plain WebSocket subscriber in this process).

import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { chromium, type Browser, type Page } from 'playwright-core'
import type { SessionInfo, TranscriptEvent } from '../protocol/index.js'
import { fixtureEntry, startBenchDaemon, type BenchDaemon } from './bench-env.js'
import { ms, percentile } from './stats.js'
import { echoCalls, writeStoredSession } from './stored-session.js'
import { subscribe } from './stream-bench-client.js'

const CHROMIUM = '/usr/bin/chromium'
const WEBSHELL_DIST = fileURLToPath(new URL('../../../webshell/dist', import.meta.url))
const INITIAL_JS_TARGET_KB = 60
const BIG_SESSION_EVENTS = 10_000
const RUNS = 5
/** App start may take at most this many times as long as a plain result reaching the screen. */
const APP_START_TARGET_RATIO = 2

function median(values: number[]): number {
  return percentile(values, 50)
}

/** Gzipped size of the scripts `index.html` loads up front (modules it imports lazily excluded). */
async function initialJavaScript(): Promise<{
  files: string[]
  gzipBytes: number
  rawBytes: number
}> {
  const html = await readFile(join(WEBSHELL_DIST, 'index.html'), 'utf8')
  const files = [
    ...html.matchAll(/<script[^>]*\bsrc="\/?([^"]+\.js)"/g),
    ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="\/?([^"]+\.js)"/g),
  ].map((match) => match[1] as string)
  let gzipBytes = 0
  let rawBytes = 0
  for (const file of new Set(files)) {
    const body = await readFile(join(WEBSHELL_DIST, file))
    rawBytes += body.length
    gzipBytes += gzipSync(body, { level: 9 }).length
  }
  return { files, gzipBytes, rawBytes }
}

/** Milliseconds from navigation start until the transcript shows seq `head` with rows on screen. */
async function firstScreen(page: Page, url: string, head: number): Promise<number> {
  await page.goto('about:blank')
  await page.goto(url, { waitUntil: 'commit' })
  const handle = await page.waitForFunction(
    (seq) => {
      const transcript = document.querySelector('[data-testid="transcript"]')
      if (transcript === null || Number(transcript.getAttribute('data-last-seq')) !== seq) {
        return false
      }
      if (seq > 0 && document.querySelector('[data-testid="call-card"]') === null) return false
      return performance.now()
    },
    head,
    { polling: 'raf', timeout: 30_000 },
  )
  return (await handle.jsonValue()) as number
}

/** Frame intervals while scrolling from the bottom of the transcript to its top, and idle. */
async function scrollFrames(
  page: Page,
  pixelsPerFrame: number | 'fling',
): Promise<{ frames: number[]; idle: number[]; maxRows: number }> {
  return page.evaluate(async (speed) => {
    const scroller = document.querySelector('[data-testid="transcript"]') as HTMLElement
    const frames: number[] = []
    const idle: number[] = []
    let maxRows = 0
    let last = performance.now()
    // The baseline: the same page's frames with nothing moving.
    for (let i = 0; i < 120; i++) {
      await new Promise(requestAnimationFrame)
      const now = performance.now()
      idle.push(now - last)
      last = now
      maxRows = Math.max(maxRows, document.querySelectorAll('[data-seq]').length)
    }
    scroller.scrollTop = scroller.scrollHeight
    await new Promise(requestAnimationFrame)
    // A fling crosses the whole transcript in about 240 frames; otherwise a fixed speed, for
    // 240 frames at most.
    const step = speed === 'fling' ? Math.max(200, scroller.scrollHeight / 240) : speed
    while (scroller.scrollTop > 0 && frames.length < (speed === 'fling' ? Infinity : 240)) {
      scroller.scrollTop = Math.max(0, scroller.scrollTop - step)
      await new Promise(requestAnimationFrame)
      const now = performance.now()
      frames.push(now - last)
      last = now
      maxRows = Math.max(maxRows, document.querySelectorAll('[data-seq]').length)
    }
    return { frames, idle, maxRows }
  }, pixelsPerFrame)
}

async function benchFirstScreen(browser: Browser): Promise<void> {
  const stateDir = await mkdtemp(join(tmpdir(), 'ferry-bench-webshell-'))
  await writeStoredSession(
    stateDir,
    'big',
    echoCalls(
      BIG_SESSION_EVENTS,
      (seq) =>
        `reply number ${seq} with **some** Markdown and a [link](https://example.com/${seq})`,
    ),
  )
  const daemon = await startBenchDaemon({ mcpServers: {} }, { stateDir })
  try {
    const empty = await daemon.api<SessionInfo>('/sessions', { name: 'empty' })
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    const open = (session: string) =>
      `${daemon.info.url}?session=${session}#token=${daemon.info.token}`
    const emptyTimes: number[] = []
    const bigTimes: number[] = []
    for (let run = 0; run < RUNS; run++) {
      emptyTimes.push(await firstScreen(page, open(empty.id), 0))
      bigTimes.push(await firstScreen(page, open('big'), BIG_SESSION_EVENTS))
    }
    const fling = await scrollFrames(page, 'fling')
    const wheel = await scrollFrames(page, 120)
    await page.close()
    console.log(`WebShell first screen (chromium, median of ${RUNS})`)
    console.log(
      `  ${BIG_SESSION_EVENTS.toLocaleString('en')} events  ${ms(median(bigTimes))}  vs empty session ${ms(median(emptyTimes))}  ratio ${(median(bigTimes) / median(emptyTimes)).toFixed(2)}x  (target ≤ 500 ms)`,
    )
    for (const [what, scrolling] of [
      ['fling bottom to top (~2,500 px per frame)', fling],
      ['steady scroll up (120 px per frame)', wheel],
    ] as const) {
      console.log(
        `  ${what}: ${scrolling.frames.length} frames, interval p50 ${ms(percentile(scrolling.frames, 50))} p95 ${ms(percentile(scrolling.frames, 95))}  vs idle p95 ${ms(percentile(scrolling.idle, 95))}  ratio p95 ${(percentile(scrolling.frames, 95) / percentile(scrolling.idle, 95)).toFixed(2)}x; at most ${scrolling.maxRows} rows in the DOM`,
      )
    }
  } finally {
    await daemon.stop()
    await rm(stateDir, { recursive: true, force: true })
  }
}

/** Per seq, when the tab first showed it (a row appearing, or a card reaching `done`). */
async function watchRows(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: Record<number, number> = {}
    ;(window as unknown as { benchSeen: Record<number, number> }).benchSeen = seen
    const scan = () => {
      const now = Date.now()
      for (const row of document.querySelectorAll('[data-seq]')) {
        const seq = Number(row.getAttribute('data-seq'))
        seen[seq] ??= now
        const card = row.querySelector('[data-testid="call-card"][data-state="done"]')
        const resultSeq = Number(card?.getAttribute('data-result-seq') ?? 0)
        if (resultSeq > 0) seen[resultSeq] ??= now
      }
    }
    new MutationObserver(scan).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-state'],
    })
  })
}

async function benchEventToScreen(browser: Browser): Promise<void> {
  const daemon: BenchDaemon = await startBenchDaemon({
    mcpServers: { fx: fixtureEntry([], { trust: true }) },
  })
  try {
    await daemon.waitAllReady(1)
    const session = await daemon.api<SessionInfo>('/sessions', { name: 'live' })
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    await page.goto(`${daemon.info.url}?session=${session.id}#token=${daemon.info.token}`)
    await page.waitForSelector('[data-testid="connection"][data-state="live"]')
    await watchRows(page)
    const subscriber = await subscribe(daemon.info, session.id)
    const calls = 200
    for (let i = 0; i < calls; i++) {
      await daemon.api('/call', {
        tool: 'mcp_fx_echo',
        arguments: { text: `event ${i}` },
        session: session.id,
      })
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    await new Promise((resolve) => setTimeout(resolve, 500))
    const seen = await page.evaluate(
      () => (window as unknown as { benchSeen: Record<number, number> }).benchSeen,
    )
    const events = (
      await daemon.api<{ events: TranscriptEvent[] }>(
        `/sessions/${session.id}/events?after=0&limit=10000`,
      )
    ).events
    const latencies: number[] = []
    let missing = 0
    for (const event of events) {
      const at = seen[event.seq]
      if (at === undefined) missing++
      else latencies.push(at - Date.parse(event.time))
    }
    subscriber.close()
    await page.close()
    const socket = subscriber.latencies
    console.log(`WebShell event → screen (chromium, ${events.length} events of ${calls} calls)`)
    console.log(
      `  tab  p50 ${ms(percentile(latencies, 50))}  p95 ${ms(percentile(latencies, 95))}  vs WebSocket subscriber p50 ${ms(percentile(socket, 50))}  p95 ${ms(percentile(socket, 95))}  ratio p95 ${(percentile(latencies, 95) / Math.max(1, percentile(socket, 95))).toFixed(2)}x  (target p95 ≤ 50 ms)${missing > 0 ? `  ${missing} events not seen` : ''}`,
    )
  } finally {
    await daemon.stop()
  }
}

/** From an App tool's result being stored to the App saying `initialized`, over `runs` calls. */
async function benchAppStart(browser: Browser): Promise<void> {
  const daemon = await startBenchDaemon(null)
  try {
    await daemon.waitAllReady(1)
    const session = await daemon.api<SessionInfo>('/sessions', { name: 'apps' })
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    // Seen from the WebShell page: the App's `initialized`, relayed by the proxy, and plain
    // results reaching the screen (the baseline).
    await page.addInitScript(() => {
      const seen = { initialized: [] as number[] }
      ;(window as unknown as { benchApps: typeof seen }).benchApps = seen
      window.addEventListener('message', (event: MessageEvent) => {
        const data = event.data as { method?: unknown } | null
        if (data?.method === 'ui/notifications/initialized') seen.initialized.push(Date.now())
      })
    })
    await page.goto(`${daemon.info.url}?session=${session.id}#token=${daemon.info.token}`)
    await page.waitForSelector('[data-testid="connection"][data-state="live"]')
    await watchRows(page)
    const runs = 10
    for (let i = 0; i < runs; i++) {
      await daemon.api('/call', {
        tool: 'mcp_demo_show_revenue_dashboard',
        arguments: {},
        session: session.id,
      })
      await page.waitForFunction(
        (count) =>
          (window as unknown as { benchApps: { initialized: number[] } }).benchApps.initialized
            .length >= count,
        i + 1,
        { timeout: 15_000 },
      )
      await daemon.api('/call', {
        tool: 'mcp_demo_echo',
        arguments: { text: 'x' },
        session: session.id,
      })
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const initialized = await page.evaluate(
      () => (window as unknown as { benchApps: { initialized: number[] } }).benchApps.initialized,
    )
    const seen = await page.evaluate(
      () => (window as unknown as { benchSeen: Record<number, number> }).benchSeen,
    )
    const events = (
      await daemon.api<{ events: TranscriptEvent[] }>(`/sessions/${session.id}/events?after=0`)
    ).events
    const results = events.filter((event) => event.type === 'call.result')
    const appStarts: number[] = []
    const plain: number[] = []
    let app = 0
    for (const event of results) {
      if (event.type !== 'call.result') continue
      if (event.display.type === 'mcp_app') {
        const at = initialized[app++]
        if (at !== undefined) appStarts.push(at - Date.parse(event.time))
      } else {
        const at = seen[event.seq]
        if (at !== undefined) plain.push(at - Date.parse(event.time))
      }
    }
    await page.close()
    console.log(`WebShell App start (chromium, ${runs} dashboard calls)`)
    console.log(
      `  result stored → App initialized  p50 ${ms(percentile(appStarts, 50))}  p95 ${ms(percentile(appStarts, 95))}  vs plain result on screen p50 ${ms(percentile(plain, 50))}  ratio p50 ${(percentile(appStarts, 50) / Math.max(1, percentile(plain, 50))).toFixed(2)}x  (target ratio p50 ≤ ${APP_START_TARGET_RATIO}x)`,
    )
  } finally {
    await daemon.stop()
  }
}

async function withChromium(run: (browser: Browser) => Promise<void>): Promise<void> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  })
  try {
    await run(browser)
  } finally {
    await browser.close()
  }
}

/** Initial JavaScript, then the first screen and scrolling of a 10,000-event session. */
export async function benchWebShellLoad(): Promise<void> {
  const js = await initialJavaScript()
  console.log(`WebShell initial JavaScript (${js.files.length} files)`)
  console.log(
    `  ${(js.gzipBytes / 1024).toFixed(1)} KB gzip (${(js.rawBytes / 1024).toFixed(1)} KB raw)  ratio to target ${(js.gzipBytes / 1024 / INITIAL_JS_TARGET_KB).toFixed(2)}x  (target ≤ ${INITIAL_JS_TARGET_KB} KB)`,
  )
  await withChromium(benchFirstScreen)
}

export function benchWebShellEvents(): Promise<void> {
  return withChromium(benchEventToScreen)
}

export function benchWebShellApps(): Promise<void> {
  return withChromium(benchAppStart)
}
