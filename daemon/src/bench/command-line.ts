// One command from a terminal, end to end: `ferry call` against a running daemon, and the daemon's
// own start until it listens, each against a program that spawns the same stdio server through the
// SDK and calls the tool itself (the baseline, measured in the same run). Wall time per run, and the
// CPU time of the processes each one started, from this process's `cutime`/`cstime` (children it
// waited for, with theirs) plus, for `ferry call`, what the daemon spent meanwhile.

import { spawn } from 'node:child_process'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ferryBin, fixtureEntry, fixtureServer, startBenchDaemon } from './bench-env.js'
import { DAEMON_NODE_FLAGS } from '../daemon/node-flags.js'
import { readRuntimeFile } from '../daemon/runtime-file.js'
import { percentile } from './stats.js'

const RUNS = 10
const directCall = fileURLToPath(new URL('./direct-call.js', import.meta.url))
/** Linux clock ticks per second, as /proc reports CPU time. */
const TICK_MS = 10

interface Timed {
  wallMs: number
  cpuMs: number
}

/** CPU time in ms of a process from /proc: its own (`own`) or of the children it waited for. */
async function cpuOf(pid: number | 'self', which: 'own' | 'children'): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  // After the command name: utime is field 14, stime 15, cutime 16, cstime 17 (1-based).
  const [user, system] = which === 'own' ? [fields[11], fields[12]] : [fields[13], fields[14]]
  return (Number(user) + Number(system)) * TICK_MS
}

/** Runs a program to its end; fails unless it exits 0 and printed `expect`. */
function run(args: string[], expect: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.on('error', reject)
    child.on('exit', (code) => {
      if (code === 0 && output.includes(expect)) resolve()
      else reject(new Error(`${args.join(' ')} exited ${code}: ${output}`))
    })
  })
}

async function timed(
  runs: number,
  once: () => Promise<void>,
  otherCpu: () => Promise<number> = async () => 0,
): Promise<Timed[]> {
  const samples: Timed[] = []
  for (let i = 0; i < runs; i++) {
    const [children, other] = [await cpuOf('self', 'children'), await otherCpu()]
    const started = performance.now()
    await once()
    const wallMs = performance.now() - started
    const cpuMs = (await cpuOf('self', 'children')) - children + ((await otherCpu()) - other)
    samples.push({ wallMs, cpuMs })
  }
  return samples
}

/** The median of one measure of the runs. */
function p50(samples: Timed[], measure: keyof Timed): number {
  return percentile(
    samples.map((sample) => sample[measure]),
    50,
  )
}

function line(label: string, samples: Timed[], baseline?: Timed[]): string {
  const [wall, cpu] = [p50(samples, 'wallMs'), p50(samples, 'cpuMs')]
  const text = `  ${label.padEnd(38)} wall p50 ${wall.toFixed(0).padStart(4)} ms  CPU p50 ${cpu.toFixed(0).padStart(4)} ms`
  if (baseline === undefined) return text
  const [baseWall, baseCpu] = [p50(baseline, 'wallMs'), p50(baseline, 'cpuMs')]
  return `${text}  ratio ${(wall / baseWall).toFixed(2)}x wall, ${(cpu / baseCpu).toFixed(2)}x CPU`
}

/** Spawns a daemon with no servers and waits until it listens; then stops it. */
async function daemonStart(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'ferry-bench-start-'))
  const stateDir = join(dir, 'state')
  const settings = join(dir, 'settings.json')
  await writeFile(settings, '{"mcpServers":{}}')
  const child = spawn(
    process.execPath,
    [
      ...DAEMON_NODE_FLAGS,
      ferryBin,
      'serve',
      '--state-dir',
      stateDir,
      '--port',
      '0',
      '--config',
      settings,
    ],
    { stdio: 'ignore', env: { ...process.env, HOME: dir, XDG_CONFIG_HOME: join(dir, '.config') } },
  )
  const exited = new Promise((resolve) => child.once('exit', resolve))
  while ((await readRuntimeFile(stateDir))?.pid !== child.pid) {
    if (child.exitCode !== null) throw new Error('the daemon exited while starting')
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
  child.kill('SIGTERM')
  await exited
}

export async function benchCommandLine(): Promise<void> {
  console.log(`command line, end to end (${RUNS} runs each, one after another)`)
  const directArgs = [directCall, fixtureServer, 'echo', '{"text":"x"}']
  await run(directArgs, 'x')
  const direct = await timed(RUNS, () => run(directArgs, 'x'))
  console.log(line('direct SDK client spawning the server', direct))

  const daemon = await startBenchDaemon({ mcpServers: { echo: fixtureEntry([], { trust: true }) } })
  try {
    await daemon.waitAllReady(1)
    const callArgs = [
      ferryBin,
      '--state-dir',
      daemon.stateDir,
      'call',
      'mcp_echo_echo',
      '{"text":"x"}',
    ]
    await run(callArgs, 'x')
    const pid = daemon.child.pid ?? 0
    const viaFerry = await timed(
      RUNS,
      () => run(callArgs, 'x'),
      () => cpuOf(pid, 'own'),
    )
    console.log(line('ferry call (daemon running)', viaFerry, direct))
  } finally {
    await daemon.stop()
  }
  const starts = await timed(RUNS, daemonStart)
  console.log(line('daemon start until it listens', starts, direct))
}
