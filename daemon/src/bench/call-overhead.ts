// Overhead per tool call: Ferry's REST call path against a trivial stdio echo tool, compared with
// the same server called directly through the SDK in the same run.

import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { fixtureEntry, fixtureServer, startBenchDaemon } from './bench-env.js'
import { ms, percentile } from './stats.js'

const WARMUP = 500

async function timeCalls(count: number, call: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < WARMUP; i++) await call()
  const samples: number[] = []
  for (let i = 0; i < count; i++) {
    const started = performance.now()
    await call()
    samples.push(performance.now() - started)
  }
  return samples
}

export async function benchCallOverhead(count: number): Promise<void> {
  const client = new Client(
    { name: 'bench', version: '0' },
    { versionNegotiation: { mode: 'legacy' } },
  )
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [fixtureServer] }),
  )
  const direct = await timeCalls(count, () =>
    client.callTool({ name: 'echo', arguments: { text: 'x' } }),
  )
  await client.close()

  const daemon = await startBenchDaemon({ mcpServers: { echo: fixtureEntry([]) } })
  try {
    await daemon.waitAllReady(1)
    const viaFerry = await timeCalls(count, () =>
      daemon.api('/call', { tool: 'mcp_echo_echo', arguments: { text: 'x' } }),
    )
    const httpOnly = await timeCalls(count, () => daemon.api('/status'))
    const [d50, d99, f50, f99] = [
      percentile(direct, 50),
      percentile(direct, 99),
      percentile(viaFerry, 50),
      percentile(viaFerry, 99),
    ]
    console.log(`call overhead (${count} sequential calls of a stdio echo tool)`)
    console.log(`  direct SDK client   p50 ${ms(d50)}  p99 ${ms(d99)}`)
    console.log(`  through Ferry API   p50 ${ms(f50)}  p99 ${ms(f99)}`)
    console.log(
      `  (of which HTTP      p50 ${ms(percentile(httpOnly, 50))}: a GET /api/status round trip on the same socket)`,
    )
    console.log(
      `  added by Ferry      p50 ${ms(f50 - d50)}  p99 ${ms(f99 - d99)}  ratio p50 ${(f50 / d50).toFixed(2)}x  (target: added p50 ≤ 1 ms)`,
    )
  } finally {
    await daemon.stop()
  }
}
