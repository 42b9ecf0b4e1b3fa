// How many screen rows each feed entry takes and what goes on them: every row is one terminal
// line (long lines are truncated, never wrapped), so the tail that fits is a simple sum.

import type { ConfirmationOutcome } from '../../protocol/index.js'
import type { CallEntry, CallState, FeedEntry } from './fold-events.js'

/** Result text beyond this many lines is summarised as "… N more lines". */
export const RESULT_PREVIEW_LINES = 6

export type RowTone = 'normal' | 'dim' | 'warning' | 'error' | 'success'

export type CallRow =
  | { kind: 'head' }
  | { kind: 'progress'; progress: number; total: number | undefined; message: string }
  | { kind: 'text'; text: string; tone: RowTone }

/** The mark at the head of a call, and its colour (an Ink colour name). */
export const STATE_MARKS: Record<CallState, { symbol: string; color: string }> = {
  requested: { symbol: '·', color: 'gray' },
  confirming: { symbol: '?', color: 'yellow' },
  running: { symbol: '▶', color: 'cyan' },
  done: { symbol: '✓', color: 'green' },
  error: { symbol: '✗', color: 'red' },
  failed: { symbol: '✗', color: 'red' },
  cancelled: { symbol: '⊘', color: 'yellow' },
  interrupted: { symbol: '!', color: 'yellow' },
}

const OUTCOME_WORDS: Record<ConfirmationOutcome, string> = {
  allow_once: 'allowed once',
  allow_tool: 'allowed (always this tool)',
  allow_server: 'allowed (always this server)',
  deny: 'denied',
}

export function describeOutcome(outcome: ConfirmationOutcome, by: string | null): string {
  return `${OUTCOME_WORDS[outcome]}${by === null ? '' : ` by ${by}`}`
}

export function previewLines(text: string, max = RESULT_PREVIEW_LINES): string[] {
  const lines = text.replace(/\n+$/, '').split('\n')
  if (lines.length <= max) return lines
  return [...lines.slice(0, max), `… ${lines.length - max} more lines`]
}

/** The rows of one call, top to bottom. */
export function callRows(entry: CallEntry): CallRow[] {
  const rows: CallRow[] = [{ kind: 'head' }]
  if (entry.state === 'confirming') {
    rows.push({ kind: 'text', text: '? waiting for a confirmation', tone: 'warning' })
  } else if (entry.confirmation !== null) {
    const { outcome, by } = entry.confirmation
    rows.push({
      kind: 'text',
      text: `${outcome === 'deny' ? '✗' : '✓'} ${describeOutcome(outcome, by)}`,
      tone: 'dim',
    })
  }
  if (entry.progress !== null && entry.state === 'running') {
    const { progress, total, message } = entry.progress
    rows.push({ kind: 'progress', progress, total, message: message ?? '' })
  }
  if (entry.output !== null) {
    const failed = entry.state === 'error' || entry.state === 'failed'
    for (const text of previewLines(entry.output)) {
      rows.push({ kind: 'text', text, tone: failed ? 'error' : 'normal' })
    }
  }
  if (entry.state === 'cancelled') rows.push({ kind: 'text', text: '⊘ cancelled', tone: 'warning' })
  if (entry.state === 'interrupted') {
    rows.push({
      kind: 'text',
      text: '! interrupted: the daemon stopped while it ran',
      tone: 'warning',
    })
  }
  if (entry.note !== null) rows.push({ kind: 'text', text: entry.note, tone: 'dim' })
  return rows
}

export function entryHeight(entry: FeedEntry): number {
  switch (entry.kind) {
    case 'call':
      return callRows(entry).length
    case 'line':
      return 1
    case 'output':
      return 1 + entry.lines.length
  }
}

/** The newest entries that fit in `rows` (at least the newest one, which the pane clips). */
export function visibleTail(feed: FeedEntry[], rows: number): FeedEntry[] {
  let used = 0
  let start = feed.length
  while (start > 0) {
    const height = entryHeight(feed[start - 1] as FeedEntry)
    if (used + height > rows && start < feed.length) break
    used += height
    start--
  }
  return feed.slice(start)
}
