// Sessions: fan-out latency to 50 subscribers, the cost of storing every event before it is
// acknowledged, and memory and replay time with large transcripts.

import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TranscriptEvent } from '../protocol/index.js'
import { EventLog } from '../sessions/event-log.js'
import { HandlePool } from '../sessions/handle-pool.js'
import { encodeRecord } from '../sessions/record-codec.js'
import { fixtureEntry, startBenchDaemon } from './bench-env.js'
import { writeStoredSession } from './stored-session.js'
import { ms, percentile } from './stats.js'
import { subscribe } from './stream-bench-client.js'

function sampleEvent(seq: number): TranscriptEvent {
  return {
    seq,
    time: new Date().toISOString(),
    client: null,
    type: 'call.progress',
    callId: 'bench',
    progress: seq,
    total: 1_000_000,
    message: `step ${seq}`,
  }
}

export async function benchFanOut(): Promise<void> {
  const daemon = await startBenchDaemon({ mcpServers: { fx: fixtureEntry([], { trust: true }) } })
  try {
    await daemon.waitAllReady(1)
    const subscribers = await Promise.all(Array.from({ length: 50 }, () => subscribe(daemon.info)))
    // 100 calls at once, each storing one progress event per 100 ms (the most a call stores
    // after its first burst) for about three seconds: ~1,000 events/s.
    const calls = Array.from({ length: 100 }, () =>
      fetch(new URL('api/call', daemon.info.url), {
        method: 'POST',
        headers: {
          authorization: `Bearer ${daemon.info.token}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ tool: 'mcp_fx_slow', arguments: { steps: 30, delayMs: 100 } }),
      }).then((response) => response.text()),
    )
    await Promise.all(calls)
    await new Promise((resolve) => setTimeout(resolve, 500))
    const latencies = subscribers.flatMap((s) => s.latencies)
    const events = subscribers[0]?.received ?? 0
    const seconds = ((subscribers[0]?.lastAt ?? 0) - (subscribers[0]?.firstAt ?? 0)) / 1000
    console.log(`fan-out (50 WebSocket subscribers, 100 calls storing progress every 100 ms)`)
    console.log(
      `  ${events} events to each subscriber at ${(events / seconds).toFixed(0)} events/s`,
    )
    console.log(
      `  delivery latency (emitted → received, storage included)  p50 ${ms(percentile(latencies, 50))}  p99 ${ms(percentile(latencies, 99))}  (target p99 ≤ 20 ms)`,
    )
    for (const subscriber of subscribers) subscriber.close()
  } finally {
    await daemon.stop()
  }
}

async function appendRate(durable: boolean, total: number): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'ferry-bench-log-'))
  const files = new HandlePool()
  const { log } = await EventLog.open<TranscriptEvent>(join(dir, 'events.jsonl'), files)
  const started = performance.now()
  if (durable) {
    // Many producers, as with many running calls: each append resolves once stored.
    const pending: Promise<void>[] = []
    for (let seq = 1; seq <= total; seq++) {
      pending.push(log.append([JSON.stringify(sampleEvent(seq))]))
    }
    await Promise.all(pending)
  } else {
    await writeFile(
      join(dir, 'plain.jsonl'),
      Array.from({ length: total }, (_, i) => encodeRecord(sampleEvent(i + 1))).join(''),
    )
  }
  const rate = total / ((performance.now() - started) / 1000)
  await log.close()
  await files.closeAll()
  await rm(dir, { recursive: true, force: true })
  return rate
}

export async function benchDurability(): Promise<void> {
  const total = 20_000
  const plain = await appendRate(false, total)
  const durable = await appendRate(true, total)
  console.log(`durability (${total} events)`)
  console.log(`  one unsynced write of all of them   ${plain.toFixed(0)} events/s`)
  console.log(
    `  each stored (group-committed fdatasync) before acknowledgement  ${durable.toFixed(0)} events/s  ratio ${(durable / plain).toFixed(3)}x  (target ≥ 5,000/s)`,
  )
}

export async function benchLargeSessions(): Promise<void> {
  const stateDir = await mkdtemp(join(tmpdir(), 'ferry-bench-sessions-'))
  const ids: string[] = []
  for (let s = 0; s < 10; s++) {
    const id = `bench${s}`
    ids.push(id)
    await writeStoredSession(
      stateDir,
      id,
      Array.from({ length: 10_000 }, (_, i) => sampleEvent(i + 1)),
    )
  }
  const empty = await startBenchDaemon({ mcpServers: {} })
  const emptyRss = await empty.rssMb()
  await empty.stop()
  const daemon = await startBenchDaemon({ mcpServers: {} }, { stateDir })
  try {
    const rss = await daemon.rssMb()
    const started = performance.now()
    const subscriber = await subscribe(daemon.info, ids[0], { history: true })
    while (subscriber.received < 10_000) await new Promise((resolve) => setTimeout(resolve, 2))
    const replayMs = performance.now() - started
    subscriber.close()
    console.log(`large sessions (10 sessions × 10,000 events)`)
    console.log(
      `  daemon RSS  ${rss.toFixed(1)} MB vs ${emptyRss.toFixed(1)} MB empty  ratio ${(rss / emptyRss).toFixed(2)}x  (target ≤ 200 MB)`,
    )
    console.log(
      `  replay of one 10,000-event session over the stream  ${ms(replayMs)}  (target ≤ 200 ms)`,
    )
  } finally {
    await daemon.stop()
    await rm(stateDir, { recursive: true, force: true })
  }
}
