// Start-up: 20 stdio servers connecting at once against the slowest single server, and daemon
// memory with 20 connected servers holding 2,000 tools.

import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { cpus } from 'node:os'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { fixtureEntry, rawServer, startBenchDaemon } from './bench-env.js'
import { ms } from './stats.js'

const directConnect = fileURLToPath(new URL('./direct-connect.js', import.meta.url))

const SERVERS = 20
const BASE_TOOLS = 6

/** A light server that spends `ms` waiting (as on a network or disk) before it speaks MCP. */
function slowStartEntry(ms: number) {
  const quoted = [process.execPath, rawServer].map((part) => `'${part}'`).join(' ')
  return { command: '/bin/sh', args: ['-c', `sleep ${ms / 1000} && exec ${quoted}`] }
}

/** The same servers connected by SDK clients in one plain process, without Ferry. */
async function directToReady(entries: Array<{ command: string; args: string[] }>): Promise<number> {
  const { stdout } = await promisify(execFile)(process.execPath, [
    directConnect,
    JSON.stringify(entries),
  ])
  return Number(stdout.trim())
}

function entryOf(startDelayMs: number, extraTools = 0): { command: string; args: string[] } {
  return startDelayMs > 0
    ? slowStartEntry(startDelayMs)
    : fixtureEntry(['--extra-tools', String(extraTools)])
}

async function timeToReady(
  servers: number,
  extraTools: number,
  startDelayMs = 0,
): Promise<{ ms: number; rssMb: number; tools: number }> {
  const mcpServers: Record<string, unknown> = {}
  for (let i = 0; i < servers; i++) mcpServers[`s${i}`] = entryOf(startDelayMs, extraTools)
  const daemon = await startBenchDaemon({ mcpServers })
  try {
    await daemon.waitAllReady(servers)
    const elapsed = performance.now() - daemon.listeningAt
    const tools = (await daemon.api<unknown[]>('/tools')).length
    const status = await readFile(`/proc/${daemon.child.pid}/status`, 'utf8').catch(() => '')
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN)
    return { ms: elapsed, rssMb: rssKb / 1024, tools }
  } finally {
    await daemon.stop()
  }
}

async function startupCase(label: string, startDelayMs: number): Promise<void> {
  const singles: number[] = []
  for (let i = 0; i < 5; i++) singles.push((await timeToReady(1, 0, startDelayMs)).ms)
  const slowestSingle = Math.max(...singles)
  const many = await timeToReady(SERVERS, 0, startDelayMs)
  const direct = {
    one: await directToReady([entryOf(startDelayMs)]),
    many: await directToReady(Array.from({ length: SERVERS }, () => entryOf(startDelayMs))),
  }
  console.log(`  ${label}`)
  console.log(
    `    one server, 5 runs   ${singles.map((v) => v.toFixed(0)).join(', ')} ms; slowest ${ms(slowestSingle)}`,
  )
  console.log(
    `    ${SERVERS} servers at once    ${ms(many.ms)}  ratio ${(many.ms / slowestSingle).toFixed(2)}x of the slowest single  (target ≤ 1.5x)`,
  )
  console.log(
    `    without Ferry (SDK clients in one process): one ${ms(direct.one)}, ${SERVERS} at once ${ms(direct.many)}, ratio ${(direct.many / direct.one).toFixed(2)}x; Ferry's ${SERVERS} at ${(many.ms / direct.many).toFixed(2)}x of that`,
  )
}

export async function benchStartup(): Promise<void> {
  console.log(`start-up (daemon listening until every server is ready)`)
  // Light servers that wait 1 s first (network, disk): shows that connects run concurrently.
  await startupCase('light servers that wait 1 s before speaking MCP', 1000)
  // SDK servers start CPU-bound (module loading); 20 of them queue for this machine's cores.
  await startupCase(`SDK fixture servers, CPU-bound start (${cpus().length} cores)`, 0)
}

export async function benchMemory(): Promise<void> {
  const extra = 100 - BASE_TOOLS
  const baseline = await timeToReady(1, 0)
  const loaded = await timeToReady(SERVERS, extra)
  console.log(`memory (daemon RSS)`)
  console.log(`  1 server, ${BASE_TOOLS} tools        ${baseline.rssMb.toFixed(1)} MB`)
  console.log(
    `  ${SERVERS} servers, ${loaded.tools} tools  ${loaded.rssMb.toFixed(1)} MB  ratio ${(loaded.rssMb / baseline.rssMb).toFixed(2)}x  (target ≤ 150 MB)`,
  )
}
