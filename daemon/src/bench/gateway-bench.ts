// `pnpm bench gateway`: what `/mcp` adds to a `tools/call` of a stdio echo tool in each era, against
// the same server called directly and against mcp-proxy serving it, all in one run; then 20
// concurrent clients, and the daemon's memory with 100 legacy sessions open.

import { startMcpProxy, type McpProxy } from './mcp-proxy-server.js'
import {
  cpuMs,
  ERAS,
  httpClient,
  startGatewayDaemon,
  stdioClient,
  type EchoClient,
  type Era,
  type GatewayDaemon,
} from './gateway-targets.js'
import { ms, percentile } from './stats.js'

const WARMUP = 500
const CALLS = 2_000
/** Calls are timed in blocks taken in turn from every target, so noise is shared among them. */
const BLOCKS = 10
const LOAD_CLIENTS = 20
const LOAD_CALLS = 200
const SESSIONS = 100

interface Target {
  era: Era
  via: 'direct' | 'ferry' | 'mcp-proxy'
  client: EchoClient
  samples: number[]
  /** The process between client and server, whose CPU time per call is counted. */
  pid?: number
  cpu: number
}

async function timeBlock(target: Target, count: number): Promise<void> {
  const cpuBefore = target.pid === undefined ? 0 : cpuMs(target.pid)
  for (let i = 0; i < count; i++) {
    const started = performance.now()
    await target.client.call()
    target.samples.push(performance.now() - started)
  }
  if (target.pid !== undefined) target.cpu += cpuMs(target.pid) - cpuBefore
}

function summary(samples: number[]): { p50: number; p99: number } {
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) }
}

async function benchLatency(ferry: GatewayDaemon, proxy: McpProxy) {
  const targets: Target[] = []
  for (const era of ERAS) {
    targets.push({ era, via: 'direct', client: await stdioClient(era), samples: [], cpu: 0 })
    targets.push({
      era,
      via: 'ferry',
      client: await ferry.connect(era),
      samples: [],
      pid: ferry.daemon.child.pid as number,
      cpu: 0,
    })
    targets.push({
      era,
      via: 'mcp-proxy',
      client: await httpClient(proxy.url, era, 'echo'),
      samples: [],
      pid: proxy.pid,
      cpu: 0,
    })
  }
  try {
    for (const target of targets) for (let i = 0; i < WARMUP; i++) await target.client.call()
    for (let block = 0; block < BLOCKS; block++) {
      for (const target of targets) await timeBlock(target, CALLS / BLOCKS)
    }
  } finally {
    for (const target of targets) await target.client.close()
  }
  console.log(
    `gateway: added latency per tools/call (${CALLS} sequential calls of a stdio echo tool per row, after ${WARMUP} warm-up calls)`,
  )
  const added: Record<string, { p50: number; p99: number }> = {}
  for (const era of ERAS) {
    const target = (via: Target['via']) => targets.find((t) => t.era === era && t.via === via)
    const of = (via: Target['via']) => summary(target(via)?.samples ?? [])
    const direct = of('direct')
    console.log(
      `  ${era.padEnd(6)} direct over stdio   p50 ${ms(direct.p50)}  p99 ${ms(direct.p99)}`,
    )
    for (const via of ['ferry', 'mcp-proxy'] as const) {
      const through = of(via)
      const extra = { p50: through.p50 - direct.p50, p99: through.p99 - direct.p99 }
      added[`${era} ${via}`] = extra
      console.log(
        `  ${era.padEnd(6)} through ${via.padEnd(10)}  p50 ${ms(through.p50)}  p99 ${ms(through.p99)}  added p50 ${ms(extra.p50)}  p99 ${ms(extra.p99)}  its CPU ${ms((target(via)?.cpu ?? 0) / CALLS)} per call`,
      )
    }
  }
  for (const era of ERAS) {
    const ferry = added[`${era} ferry`]
    const proxy = added[`${era} mcp-proxy`]
    if (ferry === undefined || proxy === undefined) continue
    console.log(
      `  ${era.padEnd(6)} Ferry adds p50 ${ms(ferry.p50)} vs mcp-proxy ${ms(proxy.p50)} (${ferry.p50 < proxy.p50 ? 'below' : 'NOT below'} it; ambition ≤ 0.5 ms), p99 ${ms(ferry.p99)} vs ${ms(proxy.p99)}`,
    )
  }
}

async function benchLoad(label: string, connect: () => Promise<EchoClient>): Promise<void> {
  const clients = await Promise.all(Array.from({ length: LOAD_CLIENTS }, connect))
  try {
    await Promise.all(
      clients.map(async (client) => {
        for (let i = 0; i < 20; i++) await client.call()
      }),
    )
    const samples: number[] = []
    const started = performance.now()
    await Promise.all(
      clients.map(async (client) => {
        for (let i = 0; i < LOAD_CALLS; i++) {
          const callStarted = performance.now()
          await client.call()
          samples.push(performance.now() - callStarted)
        }
      }),
    )
    const seconds = (performance.now() - started) / 1000
    const { p50, p99 } = summary(samples)
    console.log(
      `  ${label.padEnd(22)} ${Math.round(samples.length / seconds)
        .toString()
        .padStart(5)} calls/s  p50 ${ms(p50)}  p99 ${ms(p99)}`,
    )
  } finally {
    await Promise.all(clients.map((client) => client.close()))
  }
}

/** RSS of a fresh server process before and with `SESSIONS` legacy sessions open. */
async function sessionMemory(
  label: string,
  connect: () => Promise<EchoClient>,
  rssMb: () => Promise<number>,
): Promise<void> {
  // One client first, so the code a session runs is loaded before the "none" reading.
  const first = await connect()
  for (let i = 0; i < 50; i++) await first.call()
  await first.close()
  const before = await rssMb()
  const clients: EchoClient[] = []
  for (let i = 0; i < SESSIONS; i++) {
    const client = await connect()
    await client.call()
    clients.push(client)
  }
  const open = await rssMb()
  // Every session still answers: none was ended to make room. One at a time, as they were
  // opened: a burst of 100 new connections at once would meet the daemon's bound on connections
  // that have not yet shown a token.
  for (const client of clients) await client.call()
  for (const client of clients) await client.close()
  console.log(
    `  ${label.padEnd(10)} RSS ${before.toFixed(1)} MB with no session, ${open.toFixed(1)} MB with ${SESSIONS} (${(((open - before) * 1024) / SESSIONS).toFixed(0)} KB per session)`,
  )
}

export async function benchGateway(): Promise<void> {
  const proxy = await startMcpProxy()
  try {
    const ferry = await startGatewayDaemon()
    try {
      await benchLatency(ferry, proxy)
      console.log(
        `gateway: ${LOAD_CLIENTS} concurrent clients × ${LOAD_CALLS} sequential calls each`,
      )
      for (const era of ERAS) {
        await benchLoad(`${era} through Ferry`, () => ferry.connect(era))
        await benchLoad(`${era} through mcp-proxy`, () => httpClient(proxy.url, era, 'echo'))
      }
    } finally {
      await ferry.daemon.stop()
    }
  } finally {
    await proxy.stop()
  }
  console.log(`gateway: memory with ${SESSIONS} legacy sessions open (fresh processes)`)
  const ferry = await startGatewayDaemon()
  try {
    await sessionMemory(
      'Ferry',
      () => ferry.connect('legacy'),
      () => ferry.daemon.rssMb(),
    )
  } finally {
    await ferry.daemon.stop()
  }
  const proxy2 = await startMcpProxy()
  try {
    await sessionMemory(
      'mcp-proxy',
      () => httpClient(proxy2.url, 'legacy', 'echo'),
      () => proxy2.rssMb(),
    )
  } finally {
    await proxy2.stop()
  }
}
