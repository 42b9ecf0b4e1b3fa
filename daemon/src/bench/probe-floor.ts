// How long the disposable probe sibling (a small Node server) takes to answer
// `server/discover`, which is what PROBE_FLOOR_MS must stay well above.

import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { PROBE_FLOOR_MS } from '../mcp/connect-plan.js'
import { fixtureServer } from './bench-env.js'

async function modernWithProbe(timeoutMs: number): Promise<boolean> {
  const client = new Client(
    { name: 'bench', version: '0' },
    { versionNegotiation: { mode: 'auto', probe: { timeoutMs, maxRetries: 0 } } },
  )
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [fixtureServer, '--era', 'dual'],
    stderr: 'ignore',
  })
  try {
    await client.connect(transport)
    return client.getProtocolEra() === 'modern'
  } finally {
    await client.close()
  }
}

export async function benchProbeFloor(): Promise<void> {
  console.log(`probe floor (a dual-era server judged modern, 5 tries per probe timeout)`)
  for (const timeoutMs of [150, 250, 350, 500, 750, PROBE_FLOOR_MS]) {
    let modern = 0
    for (let i = 0; i < 5; i++) if (await modernWithProbe(timeoutMs)) modern++
    console.log(`  probe ${String(timeoutMs).padStart(4)} ms  modern ${modern}/5`)
  }
}
