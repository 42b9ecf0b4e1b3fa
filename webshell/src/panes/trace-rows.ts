// A server's protocol trace as rows, the way MCP Inspector's history shows it: each request with
// its response (or error) and the latency between them, each notification alone, and any
// response whose request is no longer kept on its own. Built incrementally as entries arrive.

import type { TraceEntry } from '../../../daemon/src/protocol/index.js'

/** Rows kept; the daemon keeps the last 1,000 messages each way. */
export const MAX_TRACE_ROWS = 2000

export interface TraceRow {
  /** The seq of the row's first entry: its request, or the entry itself. */
  key: number
  /** Who sent the row's first entry: `out` for Ferry, `in` for the server. */
  direction: TraceEntry['direction']
  kind: 'request' | 'notification' | 'response'
  method: string | null
  id: string | number | null
  request: TraceEntry | null
  /** The response or error; for a notification or a lone response, that entry itself. */
  answer: TraceEntry | null
}

export interface TraceRows {
  rows: readonly TraceRow[]
  /** The last seq taken; entries at or below it are ones already shown. */
  lastSeq: number
  add(entries: readonly TraceEntry[]): void
}

export function createTraceRows(limit = MAX_TRACE_ROWS): TraceRows {
  let rows: TraceRow[] = []
  /** Requests still waiting for their answer, by who sent them and their id: their position. */
  const open = new Map<string, number>()
  /** Rows dropped from the front so far; a position minus this is an index into `rows`. */
  let dropped = 0
  const trim = (current: TraceRow[], max: number) => {
    const cut = current.length - max
    dropped += cut
    for (const [key, at] of open) if (at < dropped) open.delete(key)
    return current.slice(cut)
  }
  const trace: TraceRows = {
    get rows() {
      return rows
    },
    lastSeq: 0,
    add(entries) {
      const next = [...rows]
      for (const entry of entries) {
        if (entry.seq <= trace.lastSeq) continue
        trace.lastSeq = entry.seq
        if (entry.kind === 'request') {
          open.set(pairKey(entry.direction, entry.id), dropped + next.length)
          next.push(row(entry, 'request', entry, null))
        } else if (entry.kind === 'notification') {
          next.push(row(entry, 'notification', null, entry))
        } else {
          // An answer travels the other way from its request.
          const key = pairKey(entry.direction === 'in' ? 'out' : 'in', entry.id)
          const at = open.get(key)
          open.delete(key)
          const index = at === undefined ? -1 : at - dropped
          const asked = index >= 0 ? next[index] : undefined
          if (asked !== undefined && asked.answer === null) {
            next[index] = { ...asked, answer: entry }
          } else {
            next.push(row(entry, 'response', null, entry))
          }
        }
      }
      rows = next.length > limit ? trim(next, limit) : next
    },
  }
  return trace
}

function pairKey(direction: TraceEntry['direction'], id: TraceEntry['id']): string {
  return `${direction}:${typeof id}:${String(id)}`
}

function row(
  first: TraceEntry,
  kind: TraceRow['kind'],
  request: TraceEntry | null,
  answer: TraceEntry | null,
): TraceRow {
  return {
    key: first.seq,
    direction: first.direction,
    kind,
    method: first.method,
    id: first.id,
    request,
    answer,
  }
}

/** The row's latency in ms, or null while it waits or when it is not a request. */
export function latencyOf(row: TraceRow): number | null {
  if (row.kind !== 'request' || row.answer === null) return null
  if (row.answer.latencyMs !== null) return row.answer.latencyMs
  if (row.request === null) return null
  return Date.parse(row.answer.time) - Date.parse(row.request.time)
}
