import { describe, expect, it } from 'vitest'
import type { TraceEntry } from '../../../daemon/src/protocol/index.js'
import { NO_FILTER, isFiltering, shownRows, toJsonLines, type ServerRow } from './trace-filter.js'
import { createTraceRows } from './trace-rows.js'

let seq = 0
function entry(fields: Partial<TraceEntry> & Pick<TraceEntry, 'direction' | 'kind'>): TraceEntry {
  seq += 1
  return {
    seq,
    time: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, seq * 10)).toISOString(),
    method: null,
    id: null,
    bytes: 10,
    latencyMs: null,
    message: {},
    ...fields,
  }
}

function rowsOf(server: string, entries: TraceEntry[]): ServerRow[] {
  const trace = createTraceRows()
  trace.add(entries)
  return trace.rows.map((row) => ({ server, row, key: `${server}:${row.key}` }))
}

const call = entry({
  direction: 'out',
  kind: 'request',
  method: 'tools/call',
  id: 1,
  message: { method: 'tools/call', params: { name: 'echo', arguments: { text: 'Needle' } } },
})
const failedResult = entry({
  direction: 'in',
  kind: 'response',
  method: 'tools/call',
  id: 1,
  message: { id: 1, result: { content: [], isError: true } },
})
const note = entry({ direction: 'in', kind: 'notification', method: 'notifications/message' })
const rows = [...rowsOf('a', [call, failedResult]), ...rowsOf('b', [note])]

describe('what the Protocol pane shows of its rows', () => {
  it('searches the messages, ignoring case, and filters by server, method, direction and errors', () => {
    const keys = (filter: Partial<typeof NO_FILTER>) =>
      shownRows(rows, { ...NO_FILTER, ...filter }, new Set()).map((item) => item.key)
    expect(isFiltering(NO_FILTER)).toBe(false)
    expect(keys({})).toEqual(['b:3', 'a:1'])
    expect(keys({ text: 'needle' })).toEqual(['a:1'])
    expect(keys({ text: 'NOTIFICATIONS/' })).toEqual(['b:3'])
    expect(keys({ server: 'b' })).toEqual(['b:3'])
    expect(keys({ method: 'tools/call' })).toEqual(['a:1'])
    expect(keys({ direction: 'in' })).toEqual(['b:3'])
    // A tool result marked isError counts as an error, as a JSON-RPC error does.
    expect(keys({ errorsOnly: true })).toEqual(['a:1'])
  })

  it('keeps pinned rows on top whatever the filter', () => {
    const shown = shownRows(rows, { ...NO_FILTER, server: 'a' }, new Set(['b:3']))
    expect(shown.map((item) => item.key)).toEqual(['b:3', 'a:1'])
  })

  it('exports one message a line, oldest first, with its time, server and direction', () => {
    const lines = toJsonLines([rows[1] as ServerRow, rows[0] as ServerRow])
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines.map((line) => [line.server, line.direction, line.seq])).toEqual([
      ['a', 'out', call.seq],
      ['a', 'in', failedResult.seq],
      ['b', 'in', note.seq],
    ])
    expect(lines[0]).toEqual({
      time: call.time,
      server: 'a',
      direction: 'out',
      seq: call.seq,
      message: call.message,
    })
  })
})
