// A minimal stream subscriber for benchmarks: counts events and their delivery latency.

import WebSocket from 'ws'
import { STREAM_AUTH_PREFIX, STREAM_PROTOCOL } from '../protocol/index.js'
import type { RuntimeInfo } from '../daemon/runtime-file.js'

export interface BenchSubscriber {
  received: number
  latencies: number[]
  firstAt: number
  lastAt: number
  close(): void
}

/**
 * Subscribes from the start of the session's history. Only events after its head at that moment
 * are counted (deliveries), unless `history` asks for the replayed ones as well.
 */
export async function subscribe(
  info: RuntimeInfo,
  session?: string,
  options: { history?: boolean } = {},
): Promise<BenchSubscriber> {
  const url = new URL('api/stream', info.url)
  url.protocol = 'ws:'
  const ws = new WebSocket(url, [STREAM_PROTOCOL, `${STREAM_AUTH_PREFIX}${info.token}`])
  const state: BenchSubscriber = {
    received: 0,
    latencies: [],
    firstAt: 0,
    lastAt: 0,
    close: () => ws.close(),
  }
  /** The session's head when the subscription began: events up to it are history, not deliveries. */
  let headSeq: number | undefined
  // Fifty subscribers share this process: read only the event's seq and time, without parsing it
  // all, so the measurement shows the daemon's delivery rather than this process's JSON work.
  ws.on('message', (data) => {
    const now = Date.now()
    const text = data.toString()
    if (text.startsWith('{"type":"subscribed"')) {
      headSeq = (JSON.parse(text) as { headSeq: number }).headSeq
      return
    }
    if (!text.startsWith('{"type":"event"') || headSeq === undefined) return
    const seq = /"seq":(\d+)/.exec(text)?.[1]
    if (options.history !== true && Number(seq) <= headSeq) return
    const at = text.indexOf('"time":"')
    if (state.received === 0) state.firstAt = performance.now()
    state.lastAt = performance.now()
    state.received++
    state.latencies.push(now - Date.parse(text.slice(at + 8, at + 32)))
  })
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
  })
  ws.send(
    JSON.stringify({
      type: 'subscribe',
      ...(session === undefined ? {} : { session }),
      afterSeq: 0,
    }),
  )
  return state
}
