// The WebShell's tools list in Debian's chromium: the first screen of 60,000 tools and the time
// each search keystroke takes to reach the screen, against 10 tools in the same run.

import { chromium, type Page } from 'playwright-core'
import { fixtureEntry, startBenchDaemon } from './bench-env.js'
import { ms, percentile } from './stats.js'

const CHROMIUM = '/usr/bin/chromium'
const MANY = 60_000
const RUNS = 3
/** Typed one key at a time, then deleted the same way. */
const QUERY = 'extra_5999'

/** Milliseconds from navigation start until the list shows `count` tools with rows on screen. */
async function firstScreen(page: Page, url: string, count: number): Promise<number> {
  await page.goto('about:blank')
  await page.goto(url, { waitUntil: 'commit' })
  const label = `${count.toLocaleString('en-US')} tools`
  const handle = await page.waitForFunction(
    (text) =>
      document.querySelector('[data-testid="tools-count"]')?.textContent === text &&
      document.querySelector('[data-testid="tool"]') !== null &&
      performance.now(),
    label,
    { polling: 'raf', timeout: 120_000 },
  )
  return (await handle.jsonValue()) as number
}

/** Per keystroke: from the input event to the new list laid out. */
async function keystrokes(page: Page): Promise<number[]> {
  return page.evaluate(async (query) => {
    const input = document.querySelector('input[type="search"]') as HTMLInputElement
    const times: number[] = []
    const type = async (value: string) => {
      const start = performance.now()
      input.value = value
      input.dispatchEvent(new Event('input', { bubbles: true }))
      // Preact renders in a microtask after the handler; a task later it has, and reading a
      // size forces the layout of what it rendered.
      await new Promise((resolve) => setTimeout(resolve, 0))
      void document.querySelector('[data-testid="tool-list"]')?.scrollHeight
      times.push(performance.now() - start)
      await new Promise(requestAnimationFrame)
    }
    for (let i = 1; i <= query.length; i++) await type(query.slice(0, i))
    for (let i = query.length - 1; i >= 0; i--) await type(query.slice(0, i))
    return times
  }, QUERY)
}

async function measure(
  page: Page,
  extraTools: number,
): Promise<{ tools: number; first: number[]; keys: number[]; nodes: number }> {
  // The fixture serves 6 tools of its own besides the extras.
  const tools = extraTools + 6
  const daemon = await startBenchDaemon({
    mcpServers: {
      fx: fixtureEntry(['--extra-tools', String(extraTools), '--pages', '30'], {
        discoveryTimeoutMs: 120_000,
      }),
    },
  })
  try {
    await daemon.waitAllReady(1)
    const url = `${daemon.info.url}#token=${daemon.info.token}`
    const first: number[] = []
    for (let run = 0; run < RUNS; run++) first.push(await firstScreen(page, url, tools))
    const keys = await keystrokes(page)
    const nodes = await page.evaluate(() => document.getElementsByTagName('*').length)
    return { tools, first, keys, nodes }
  } finally {
    await daemon.stop()
  }
}

export async function benchWebShellTools(): Promise<void> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  })
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    const few = await measure(page, 4)
    const many = await measure(page, MANY)
    await page.close()
    const median = (values: number[]) => percentile(values, 50)
    console.log(`WebShell tools list (chromium, first screen median of ${RUNS})`)
    console.log(
      `  first screen  ${many.tools.toLocaleString('en-US')} tools ${ms(median(many.first))}  vs ${few.tools} tools ${ms(median(few.first))}  ratio ${(median(many.first) / median(few.first)).toFixed(2)}x  (target < 1 s); ${many.nodes.toLocaleString('en-US')} vs ${few.nodes} elements in the page`,
    )
    console.log(
      `  search keystroke  p50 ${ms(percentile(many.keys, 50))}  max ${ms(Math.max(...many.keys))}  vs ${few.tools} tools p50 ${ms(percentile(few.keys, 50))}  max ${ms(Math.max(...few.keys))}  ratio p50 ${(percentile(many.keys, 50) / Math.max(0.1, percentile(few.keys, 50))).toFixed(2)}x  (target < 100 ms, ${many.keys.length} keystrokes)`,
    )
  } finally {
    await browser.close()
  }
}
