// A server that sends progress as fast as it can for 60 s (FERRY_BENCH_FLOOD_MS): how much the
// transcript and the daemon's memory grow, against the same daemon before the flood.

import { mkdtemp, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CallResponse, EventsPage, StatusResponse } from '../protocol/index.js'
import { fixtureEntry, startBenchDaemon } from './bench-env.js'

const FLOOD_MS = Number(process.env.FERRY_BENCH_FLOOD_MS ?? 60_000)
/** How long after the flood the daemon has to give its memory back. */
const SETTLE_MS = 60_000

export async function benchProgressFlood(): Promise<void> {
  const stateDir = join(await mkdtemp(join(tmpdir(), 'ferry-bench-flood-')), 'state')
  const daemon = await startBenchDaemon(
    { mcpServers: { fx: fixtureEntry(['--progress-flood'], { trust: true }) } },
    { stateDir },
  )
  try {
    await daemon.waitAllReady(1)
    const { defaultSession } = await daemon.api<StatusResponse>('/status')
    const transcript = join(stateDir, 'sessions', defaultSession, 'events.jsonl')
    const bytes = async () => (await stat(transcript)).size
    // The baseline: the same daemon after one ordinary call.
    await daemon.api('/call', { tool: 'mcp_fx_echo', arguments: { text: 'warm up' } })
    const before = { bytes: await bytes(), rssMb: await daemon.rssMb() }

    let peakMb = before.rssMb
    const sampler = setInterval(() => {
      void daemon.rssMb().then((mb) => (peakMb = Math.max(peakMb, mb)))
    }, 250)
    const { id, result } = await daemon.api<CallResponse>('/call', {
      tool: 'mcp_fx_progress_flood',
      arguments: { ms: FLOOD_MS },
      timeoutMs: 60_000,
    })
    clearInterval(sampler)
    const after = { bytes: await bytes(), rssMb: await daemon.rssMb() }
    const sent = Number(/sent (\d+)/.exec(JSON.stringify(result.content))?.[1])
    // A minute with nothing to do: V8 may give back what the flood made it take.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS))
    const settledMb = await daemon.rssMb()
    const page = await daemon.api<EventsPage>(`/sessions/${defaultSession}/events?limit=100000`)
    const stored = page.events.filter((e) => e.type === 'call.progress' && e.callId === id).length

    const mb = (n: number) => `${(n / (1024 * 1024)).toFixed(2)} MB`
    console.log(`progress flood (one call sending progress for ${(FLOOD_MS / 1000).toFixed(0)} s)`)
    console.log(`  progress sent ${sent}, stored ${stored}`)
    console.log(
      `  transcript  ${mb(before.bytes)} before, ${mb(after.bytes)} after: growth ${mb(after.bytes - before.bytes)}  (target < 2 MB)`,
    )
    console.log(
      `  daemon RSS  ${before.rssMb.toFixed(1)} MB before, peak ${peakMb.toFixed(1)} MB, ${after.rssMb.toFixed(1)} MB after: growth ${(after.rssMb - before.rssMb).toFixed(1)} MB, peak growth ${(peakMb - before.rssMb).toFixed(1)} MB  (target < 50 MB)`,
    )
    console.log(
      `  ${SETTLE_MS / 1000} s later  ${settledMb.toFixed(1)} MB: ${settledMb >= before.rssMb ? '+' : ''}${(settledMb - before.rssMb).toFixed(1)} MB against before, ratio ${(settledMb / before.rssMb).toFixed(2)}x  (target: back near its start)`,
    )
  } finally {
    await daemon.stop()
  }
}
