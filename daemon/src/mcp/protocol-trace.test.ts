import { describe, expect, it } from 'vitest'
import { CUT_KEY, ProtocolTrace, TRACE_STRING_CHARS } from './protocol-trace.js'

const request = (id: number, method = 'tools/call') => ({
  jsonrpc: '2.0' as const,
  id,
  method,
  params: { name: 'echo' },
})
const response = (id: number) => ({ jsonrpc: '2.0' as const, id, result: { ok: true } })

describe('ProtocolTrace', () => {
  it('keeps the last 1,000 messages in each direction, whatever the other direction does', () => {
    const trace = new ProtocolTrace()
    const tap = trace.tap()
    for (let id = 1; id <= 1500; id++) tap.outgoing(request(id))
    for (let id = 1; id <= 1200; id++) tap.incoming(response(id))
    const kept = trace.after(0)
    const out = kept.filter((e) => e.direction === 'out')
    const back = kept.filter((e) => e.direction === 'in')
    expect(out).toHaveLength(1000)
    expect(back).toHaveLength(1000)
    expect(out[0]?.id).toBe(501)
    expect(back[0]?.id).toBe(201)
    // Oldest first by seq, with the directions merged.
    expect(kept.map((e) => e.seq)).toEqual([...kept.map((e) => e.seq)].sort((a, b) => a - b))
    expect(trace.headSeq).toBe(2700)
    expect(trace.after(2699).map((e) => e.seq)).toEqual([2700])
  })

  it('holds a bounded number of entries however many small messages pass', () => {
    // A server flooding progress: no message comes near the byte budget, so only the rings'
    // bounds apply, and what left them must not stay behind.
    const trace = new ProtocolTrace(10)
    const tap = trace.tap()
    const progress = (n: number) => ({
      jsonrpc: '2.0' as const,
      method: 'notifications/progress',
      params: { progressToken: 1, progress: n },
    })
    for (let n = 1; n <= 50_000; n++) tap.incoming(progress(n))
    expect(trace.after(0)).toHaveLength(10)
    expect(trace.held).toBeLessThanOrEqual(4 * 10 + 4096)
  })

  it('pairs answers with requests in both directions, with the method and a latency', () => {
    const trace = new ProtocolTrace()
    const tap = trace.tap()
    tap.outgoing(request(7))
    tap.incoming({ jsonrpc: '2.0', id: 0, method: 'roots/list' })
    tap.outgoing({ jsonrpc: '2.0', id: 0, result: { roots: [] } })
    tap.incoming({ jsonrpc: '2.0', id: 7, error: { code: -32602, message: 'bad' } })
    tap.incoming(response(99))
    const [sent, asked, answered, failed, stray] = trace.after(0)
    expect(sent).toMatchObject({ kind: 'request', method: 'tools/call', latencyMs: null })
    expect(asked).toMatchObject({ direction: 'in', kind: 'request', method: 'roots/list' })
    expect(answered).toMatchObject({ direction: 'out', kind: 'response', method: 'roots/list' })
    expect(answered?.latencyMs).toEqual(expect.any(Number))
    expect(failed).toMatchObject({ kind: 'error', method: 'tools/call', id: 7 })
    expect(failed?.latencyMs).toBeGreaterThanOrEqual(0)
    expect(stray).toMatchObject({ kind: 'response', method: null, latencyMs: null })
  })

  it('cuts long strings, keeps an oversize message as its envelope, and gives old bodies up past the budget', () => {
    const trace = new ProtocolTrace(1000, 50_000)
    const tap = trace.tap()
    tap.incoming({ jsonrpc: '2.0', id: 1, result: { text: 'x'.repeat(5000) } })
    const [cut] = trace.after(0)
    const text = (cut?.message as { result: { text: string } } | undefined)?.result.text ?? ''
    expect(text.startsWith('x'.repeat(TRACE_STRING_CHARS))).toBe(true)
    expect(text).toContain(`[${CUT_KEY}: ${5000 - TRACE_STRING_CHARS} more characters]`)
    expect(cut?.bytes).toBeGreaterThan(5000)

    const many = Array.from({ length: 100 }, () => 'y'.repeat(1000))
    tap.incoming({ jsonrpc: '2.0', id: 2, result: { many } })
    const big = trace.after(1)[0]
    expect(big?.message).toEqual({
      jsonrpc: '2.0',
      id: 2,
      [CUT_KEY]: expect.stringMatching(/^\d+ bytes, body not kept: over the 64 KB/),
    })

    for (let id = 10; id < 60; id++) {
      tap.incoming({ jsonrpc: '2.0', id, result: { text: 'z'.repeat(2000) } })
    }
    const kept = trace.after(0)
    expect(kept).toHaveLength(52)
    expect(kept[0]?.message).toMatchObject({ [CUT_KEY]: expect.stringContaining('older bodies') })
    expect(kept.at(-1)?.message).toMatchObject({ result: { text: 'z'.repeat(2000) } })
    const withBodies = kept.filter((e) => !JSON.stringify(e.message).includes(CUT_KEY))
    expect(JSON.stringify(withBodies.map((e) => e.message)).length).toBeLessThanOrEqual(50_000)
  })
})
