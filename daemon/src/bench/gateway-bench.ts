// `pnpm bench gateway`: what `/mcp` adds to a `tools/call` of a stdio echo tool in each era, against
// the same server called directly and against each peer gateway serving it (mcp-proxy, mcp-hub,
// supergateway), all in one run; then 20 concurrent clients, and the daemon's memory with 100
// legacy sessions open against mcp-proxy's.

import { PEERS, startPeer, type PeerGateway, type PeerName } from './peer-gateways.js'
import {
  cpuMs,
  ERAS,
  httpClient,
  sseClient,
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
  /** `ferry REST`: `POST /api/call`, beside the legacy rows (Ferry's own link to the server). */
  via: 'direct' | 'ferry' | 'ferry REST' | PeerName
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

/** A client of `peer` in `era`, or undefined when the peer does not speak that era. */
async function peerClient(peer: PeerGateway, era: Era): Promise<EchoClient | undefined> {
  if (era === 'modern' && !peer.modern) return undefined
  return peer.transport === 'sse'
    ? sseClient(peer.url, peer.tool)
    : httpClient(peer.url, era, peer.tool)
}

async function benchLatency(ferry: GatewayDaemon, peers: PeerGateway[]) {
  const targets: Target[] = []
  const missing: string[] = []
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
    if (era === 'legacy') {
      const pid = ferry.daemon.child.pid as number
      targets.push({ era, via: 'ferry REST', client: ferry.rest, samples: [], pid, cpu: 0 })
    }
    for (const peer of peers) {
      const client = await peerClient(peer, era)
      if (client === undefined) missing.push(`${peer.name} (${era})`)
      else targets.push({ era, via: peer.name, client, samples: [], pid: peer.pid, cpu: 0 })
    }
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
  if (missing.length > 0)
    console.log(`  not serving that era as a gateway, so not measured: ${missing.join(', ')}`)
  for (const era of ERAS) {
    const of = (target: Target | undefined) => summary(target?.samples ?? [])
    const direct = of(targets.find((t) => t.era === era && t.via === 'direct'))
    console.log(
      `  ${era.padEnd(6)} direct over stdio   p50 ${ms(direct.p50)}  p99 ${ms(direct.p99)}`,
    )
    const added = new Map<Target['via'], { p50: number; p99: number; cpu: number }>()
    for (const target of targets.filter((t) => t.era === era && t.via !== 'direct')) {
      const through = of(target)
      const extra = { p50: through.p50 - direct.p50, p99: through.p99 - direct.p99 }
      added.set(target.via, { ...extra, cpu: target.cpu / CALLS })
      console.log(
        `  ${era.padEnd(6)} through ${target.via.padEnd(12)}  p50 ${ms(through.p50)}  p99 ${ms(through.p99)}  added p50 ${ms(extra.p50)}  p99 ${ms(extra.p99)}  its CPU ${ms(target.cpu / CALLS)} per call`,
      )
    }
    const isFerry = (via: Target['via']) => via === 'ferry' || via === 'ferry REST'
    const peersAdded = [...added].filter(([via]) => !isFerry(via))
    const best = [...peersAdded].sort((a, b) => a[1].p50 - b[1].p50)[0]
    if (best === undefined) continue
    const [bestName, peer] = best
    const leanest = Math.min(...peersAdded.map(([, v]) => v.cpu))
    for (const via of ['ferry', 'ferry REST'] as const) {
      const ours = added.get(via)
      if (ours === undefined) continue
      const label = via === 'ferry' ? `${era.padEnd(6)} Ferry /mcp` : `       Ferry REST`
      console.log(
        `  ${label} adds p50 ${ms(ours.p50)} vs the best peer, ${bestName}, ${ms(peer.p50)} (${ours.p50 < peer.p50 ? 'below' : 'NOT below'} it; ambition ≤ 0.5 ms); CPU per call ${ms(ours.cpu)} vs the leanest peer's ${ms(leanest)} (${ours.cpu <= leanest ? 'at most' : 'NOT at most'} it)`,
      )
    }
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
  const peers: PeerGateway[] = []
  try {
    for (const name of PEERS) peers.push(await startPeer(name))
    const ferry = await startGatewayDaemon()
    try {
      await benchLatency(ferry, peers)
      console.log(
        `gateway: ${LOAD_CLIENTS} concurrent clients × ${LOAD_CALLS} sequential calls each`,
      )
      for (const era of ERAS) {
        await benchLoad(`${era} through Ferry`, () => ferry.connect(era))
        for (const peer of peers) {
          const probe = await peerClient(peer, era)
          if (probe === undefined) continue
          await probe.close()
          await benchLoad(`${era} through ${peer.name}`, async () => {
            const client = await peerClient(peer, era)
            if (client === undefined) throw new Error(`${peer.name} stopped speaking ${era}`)
            return client
          })
        }
      }
    } finally {
      await ferry.daemon.stop()
    }
  } finally {
    for (const peer of peers) await peer.stop()
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
  const proxy = await startPeer('mcp-proxy')
  try {
    await sessionMemory(
      'mcp-proxy',
      () => httpClient(proxy.url, 'legacy', proxy.tool),
      () => proxy.rssMb(),
    )
  } finally {
    await proxy.stop()
  }
}
