// Where Markdown is rendered: in a worker, under a time limit unless someone asked for the text
// as Markdown, with the outcome remembered per text, so a row that scrolls back into view (or a
// second card with the same text) shows at once instead of parsing again.

import { TimedWorker } from '../timed-worker.js'
import type { MarkdownRendering } from './markdown.js'

/** Longer texts, or texts of more lines, are shown plain without being parsed at all. */
export const MARKDOWN_MAX_CHARS = 100_000
export const MARKDOWN_MAX_LINES = 5_000
/** A text still parsing after this long is shown plain. */
export const MARKDOWN_TIME_LIMIT_MS = 1_500

const CACHE_CHARS = 4_000_000
const CACHE_ENTRIES = 1_000

const worker = new TimedWorker<string, MarkdownRendering>(
  () => new Worker(new URL('./markdown-worker.ts', import.meta.url), { type: 'module' }),
)
const cache = new Map<string, MarkdownRendering>()
let cachedChars = 0

/** The first text of a page need not wait for the worker to load. */
export function warmMarkdown(): void {
  worker.warm()
}

/** Why `text` is not parsed as Markdown unless asked, or undefined if it is within budget. */
export function overBudget(text: string): string | undefined {
  if (text.length > MARKDOWN_MAX_CHARS) {
    return `it is over ${MARKDOWN_MAX_CHARS / 1000} KB`
  }
  if (lineCount(text, MARKDOWN_MAX_LINES) > MARKDOWN_MAX_LINES) {
    return `it has over ${MARKDOWN_MAX_LINES.toLocaleString('en-US')} lines`
  }
  return undefined
}

/** Lines in `text`, counting no further than `stopAbove + 1`. */
export function lineCount(text: string, stopAbove = Infinity): number {
  if (text === '') return 0
  let lines = 1
  for (let at = text.indexOf('\n'); at !== -1 && at < text.length - 1;) {
    if (++lines > stopAbove) break
    at = text.indexOf('\n', at + 1)
  }
  return lines
}

export function cachedRendering(text: string): MarkdownRendering | undefined {
  const found = cache.get(text)
  if (found !== undefined) {
    // Most recently used last, so the oldest go first.
    cache.delete(text)
    cache.set(text, found)
  }
  return found
}

/**
 * Renders `text` in the worker: within the time limit, or with no limit when `asked` (the person
 * chose to render it). Undefined if `signal` aborted first.
 */
export async function renderOffThread(
  text: string,
  asked: boolean,
  signal: AbortSignal,
): Promise<MarkdownRendering | undefined> {
  const outcome = await worker.run(text, asked ? null : MARKDOWN_TIME_LIMIT_MS, signal)
  if (outcome === undefined) return undefined
  const rendering: MarkdownRendering = outcome.ok
    ? outcome.value
    : outcome.reason === 'timeout'
      ? {
          ok: false,
          reason: `rendering it as Markdown took over ${MARKDOWN_TIME_LIMIT_MS / 1000} s`,
          retry: true,
        }
      : { ok: false, reason: 'the Markdown renderer could not run', retry: false }
  // A time-out is remembered too: the same text would only time out again. Asking for it to be
  // rendered anyway goes around the cache.
  remember(text, rendering)
  return rendering
}

function size(text: string, rendering: MarkdownRendering): number {
  return text.length + (rendering.ok ? rendering.html.length : 0)
}

function remember(text: string, rendering: MarkdownRendering): void {
  const old = cache.get(text)
  if (old !== undefined) {
    cache.delete(text)
    cachedChars -= size(text, old)
  }
  cache.set(text, rendering)
  cachedChars += size(text, rendering)
  for (const [oldText, oldest] of cache) {
    if (cachedChars <= CACHE_CHARS && cache.size <= CACHE_ENTRIES) break
    cache.delete(oldText)
    cachedChars -= size(oldText, oldest)
  }
}
