import { describe, expect, it } from 'vitest'
import type { TraceEntry } from '../../../daemon/src/protocol/index.js'
import { createTraceRows, latencyOf } from './trace-rows.js'

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

describe('the protocol trace rows', () => {
  it('pair each request with its answer and give its latency', () => {
    const trace = createTraceRows()
    const call = entry({ direction: 'out', kind: 'request', method: 'tools/call', id: 3 })
    const note = entry({ direction: 'in', kind: 'notification', method: 'notifications/message' })
    // The server asks something of Ferry with the same id: a different conversation.
    const ask = entry({ direction: 'in', kind: 'request', method: 'roots/list', id: 3 })
    trace.add([call, note, ask])
    expect(trace.rows.map((row) => [row.kind, row.method, row.answer])).toEqual([
      ['request', 'tools/call', null],
      ['notification', 'notifications/message', note],
      ['request', 'roots/list', null],
    ])
    const reply = entry({ direction: 'out', kind: 'response', method: 'roots/list', id: 3 })
    const result = entry({
      direction: 'in',
      kind: 'response',
      method: 'tools/call',
      id: 3,
      latencyMs: 42,
    })
    trace.add([reply, result])
    expect(trace.rows).toHaveLength(3)
    expect(trace.rows[0]?.answer).toBe(result)
    expect(trace.rows[2]?.answer).toBe(reply)
    expect(latencyOf(trace.rows[0]!)).toBe(42)
    // Without a latency from the daemon, it comes from the two times.
    expect(latencyOf(trace.rows[2]!)).toBe(10)
    expect(latencyOf(trace.rows[1]!)).toBeNull()
  })

  it('take each seq once and show an answer without its request on its own', () => {
    const trace = createTraceRows()
    const lone = entry({ direction: 'in', kind: 'error', method: 'tools/call', id: 'x' })
    trace.add([lone])
    trace.add([lone])
    expect(trace.rows.map((row) => row.kind)).toEqual(['response'])
    expect(trace.lastSeq).toBe(lone.seq)
  })

  it('keep the newest rows and still pair answers to requests kept', () => {
    const trace = createTraceRows(3)
    const first = entry({ direction: 'out', kind: 'request', method: 'a', id: 1 })
    const second = entry({ direction: 'out', kind: 'request', method: 'b', id: 2 })
    trace.add([first, second])
    trace.add([1, 2].map(() => entry({ direction: 'in', kind: 'notification', method: 'n' })))
    expect(trace.rows.map((row) => row.method)).toEqual(['b', 'n', 'n'])
    const answer = entry({ direction: 'in', kind: 'response', method: 'b', id: 2 })
    const dropped = entry({ direction: 'in', kind: 'response', method: 'a', id: 1 })
    trace.add([answer, dropped])
    expect(trace.rows.map((row) => [row.method, row.kind])).toEqual([
      ['n', 'notification'],
      ['n', 'notification'],
      ['a', 'response'],
    ])
    trace.add([])
    const again = createTraceRows(3)
    again.add([second, answer])
    expect(again.rows[0]?.answer).toBe(answer)
  })
})
