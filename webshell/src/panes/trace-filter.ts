// What the Protocol pane shows of its rows and what it exports: a text search over each row's
// method and messages, filters by method, server, direction and errors, pinned rows first, and
// the rows' messages as JSON lines.

import type { TraceEntry } from '../../../daemon/src/protocol/index.js'
import type { TraceRow } from './trace-rows.js'

/** A row of one server's trace, as the pane shows several servers' traffic together. */
export interface ServerRow {
  server: string
  row: TraceRow
  /** Unique over servers: the server and the row's key. */
  key: string
}

export interface TraceFilter {
  /** Matched, ignoring case, against the method and the JSON of each message. */
  text: string
  /** '' for every method. */
  method: string
  /** '' for every server. */
  server: string
  /** Who sent the row's first message: `out` to the server, `in` from it. */
  direction: 'any' | TraceEntry['direction']
  /** Rows answered with a JSON-RPC error or a tool result marked `isError`. */
  errorsOnly: boolean
}

export const NO_FILTER: TraceFilter = {
  text: '',
  method: '',
  server: '',
  direction: 'any',
  errorsOnly: false,
}

export function isFiltering(filter: TraceFilter): boolean {
  return (
    filter.text.trim() !== '' ||
    filter.method !== '' ||
    filter.server !== '' ||
    filter.direction !== 'any' ||
    filter.errorsOnly
  )
}

/** Each message's JSON, lowercased, made once: rows are searched again on every keystroke. */
const searchable = new WeakMap<TraceEntry, string>()

function textOf(entry: TraceEntry | null): string {
  if (entry === null) return ''
  let text = searchable.get(entry)
  if (text === undefined) {
    try {
      text = (JSON.stringify(entry.message) ?? '').toLowerCase()
    } catch {
      text = ''
    }
    searchable.set(entry, text)
  }
  return text
}

export function isFailed(row: TraceRow): boolean {
  const answer = row.answer
  if (answer === null) return false
  if (answer.kind === 'error') return true
  const result = (answer.message as { result?: { isError?: unknown } } | null)?.result
  return result?.isError === true
}

export function matches(item: ServerRow, filter: TraceFilter): boolean {
  const { row } = item
  if (filter.server !== '' && item.server !== filter.server) return false
  if (filter.method !== '' && row.method !== filter.method) return false
  if (filter.direction !== 'any' && row.direction !== filter.direction) return false
  if (filter.errorsOnly && !isFailed(row)) return false
  const text = filter.text.trim().toLowerCase()
  if (text === '') return true
  return (
    (row.method ?? '').toLowerCase().includes(text) ||
    textOf(row.request).includes(text) ||
    (row.answer !== row.request && textOf(row.answer).includes(text))
  )
}

/**
 * The rows to show, newest first: the pinned ones on top whatever the filter, then those that
 * match it.
 */
export function shownRows(
  rows: readonly ServerRow[],
  filter: TraceFilter,
  pinned: ReadonlySet<string>,
): ServerRow[] {
  const top: ServerRow[] = []
  const rest: ServerRow[] = []
  for (let at = rows.length - 1; at >= 0; at--) {
    const item = rows[at] as ServerRow
    if (pinned.has(item.key)) top.push(item)
    else if (matches(item, filter)) rest.push(item)
  }
  return [...top, ...rest]
}

/**
 * Rows as JSON lines, oldest first, one message a line: its time, server, direction (`out` to the
 * server, `in` from it), seq and the JSON-RPC message as the trace kept it.
 */
export function toJsonLines(rows: readonly ServerRow[]): string {
  const entries: { server: string; entry: TraceEntry }[] = []
  for (const { server, row } of rows) {
    if (row.request !== null) entries.push({ server, entry: row.request })
    if (row.answer !== null && row.answer !== row.request)
      entries.push({ server, entry: row.answer })
  }
  entries.sort((a, b) => a.entry.time.localeCompare(b.entry.time) || a.entry.seq - b.entry.seq)
  return entries
    .map(({ server, entry }) =>
      JSON.stringify({
        time: entry.time,
        server,
        direction: entry.direction,
        seq: entry.seq,
        message: entry.message,
      }),
    )
    .map((line) => `${line}\n`)
    .join('')
}
