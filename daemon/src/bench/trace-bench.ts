// `pnpm bench trace`: what the protocol trace costs per message (against serialising the message
// once, which every transport does anyway) and how much memory a server's trace holds once full of
// large messages (against the 8 MB body budget).

import type { JSONRPCMessage } from '@modelcontextprotocol/client'
import { ProtocolTrace, TRACE_BODY_BUDGET_BYTES } from '../mcp/protocol-trace.js'

function typicalResult(id: number): JSONRPCMessage {
  const text = `result ${id} `.repeat(60)
  return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } }
}

function microsPer(count: number, run: (i: number) => void): number {
  const start = process.hrtime.bigint()
  for (let i = 0; i < count; i++) run(i)
  return Number(process.hrtime.bigint() - start) / 1000 / count
}

function heapMb(): number {
  globalThis.gc?.()
  return process.memoryUsage().heapUsed / 1024 / 1024
}

export async function benchTrace(): Promise<void> {
  const count = 50_000
  const messages = Array.from({ length: 1000 }, (_, i) => typicalResult(i))
  const trace = new ProtocolTrace()
  const tap = trace.tap()
  // Warm up both paths.
  microsPer(count, (i) => JSON.stringify(messages[i % 1000]))
  microsPer(count, (i) => tap.incoming(messages[i % 1000] as JSONRPCMessage))
  const baseline = microsPer(count, (i) => JSON.stringify(messages[i % 1000]))
  const traced = microsPer(count, (i) => tap.incoming(messages[i % 1000] as JSONRPCMessage))
  const bytes = JSON.stringify(messages[0]).length
  console.log(
    `trace: ${traced.toFixed(2)} µs per ${bytes}-byte message recorded, against ${baseline.toFixed(2)} µs to serialise it once (${(traced / baseline).toFixed(1)}×)`,
  )

  const before = heapMb()
  const full = new ProtocolTrace()
  const fullTap = full.tap()
  // 2,000 messages of about 60 KB each, as parsed off the wire (no string shared), every string
  // under the cut: only the budget bounds them.
  for (let id = 0; id < 2000; id++) {
    const parts = Array.from({ length: 30 }, (_, j) => `${id}-${j}-`.padEnd(2000, 'x'))
    const big = JSON.parse(JSON.stringify({ jsonrpc: '2.0', id, result: { parts } })) as unknown
    if (id % 2 === 0) fullTap.outgoing(big as JSONRPCMessage)
    else fullTap.incoming(big as JSONRPCMessage)
  }
  const held = heapMb() - before
  console.log(
    `trace memory: ${held.toFixed(1)} MB held by a full trace of 2,000 messages of ~60 KB (120 MB sent), against the ${TRACE_BODY_BUDGET_BYTES / 1024 / 1024} MB body budget; ${full.after(0).length} entries kept`,
  )
  await Promise.resolve()
}
