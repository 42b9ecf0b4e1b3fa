// Shared set-up for benchmarks: fixture paths, temporary settings, and a daemon child process.

import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { connectDaemon } from '../cli/daemon-client.js'
import { DAEMON_NODE_FLAGS } from '../daemon/node-flags.js'
import { readRuntimeFile, type RuntimeInfo } from '../daemon/runtime-file.js'
import type { ServerInfo } from '../protocol/index.js'

export const fixtureServer = fileURLToPath(
  new URL('../../../e2e/dist/fixtures/stdio-server.js', import.meta.url),
)
/** A hand-written JSON-RPC server: starts as fast as Node itself. */
export const rawServer = fileURLToPath(
  new URL('../../../e2e/dist/fixtures/raw-legacy-server.js', import.meta.url),
)
export const ferryBin = fileURLToPath(new URL('../../bin/ferry.js', import.meta.url))

export function fixtureEntry(flags: string[], extra: Record<string, unknown> = {}) {
  return { command: process.execPath, args: [fixtureServer, ...flags], ...extra }
}

export interface BenchDaemon {
  info: RuntimeInfo
  /** Where the daemon keeps its state; `ferry --state-dir` reaches it. */
  stateDir: string
  /** performance.now() when the runtime file appeared: the daemon listens and starts connecting. */
  listeningAt: number
  child: ChildProcess
  api<T>(path: string, body?: unknown): Promise<T>
  waitAllReady(count: number): Promise<ServerInfo[]>
  rssMb(): Promise<number>
  stop(): Promise<void>
}

export async function startBenchDaemon(
  settings: unknown,
  options: { stateDir?: string } = {},
): Promise<BenchDaemon> {
  const dir = await mkdtemp(join(tmpdir(), 'ferry-bench-'))
  const stateDir = options.stateDir ?? join(dir, 'state')
  const args = [ferryBin, 'serve', '--state-dir', stateDir, '--port', '0']
  // `null`: no settings anywhere, so the daemon runs its built-in demo.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, '.config'),
  }
  delete env.FERRY_CONFIG
  if (settings !== null) {
    const config = join(dir, 'settings.json')
    await writeFile(config, JSON.stringify(settings))
    args.push('--config', config)
  }
  const child = spawn(process.execPath, [...DAEMON_NODE_FLAGS, ...args], {
    stdio: 'ignore',
    env,
    cwd: dir,
  })
  let runtime: RuntimeInfo | undefined
  while (runtime === undefined) {
    if (child.exitCode !== null) throw new Error('the daemon exited while starting')
    await new Promise((resolve) => setTimeout(resolve, 10))
    const info = await readRuntimeFile(stateDir)
    if (info?.pid === child.pid) runtime = info
  }
  // The command line's client (node:http, kept-alive sockets): the numbers show Ferry, not fetch.
  const client = await connectDaemon(stateDir)
  const api = <T>(path: string, body?: unknown): Promise<T> =>
    body === undefined ? client.get<T>(path) : client.post<T>(path, body)
  return {
    info: runtime,
    stateDir,
    listeningAt: performance.now(),
    child,
    api,
    async waitAllReady(count) {
      for (;;) {
        const servers = await api<ServerInfo[]>('/servers')
        if (servers.filter((s) => s.status === 'ready').length >= count) return servers
        if (servers.some((s) => s.status === 'failed')) throw new Error(JSON.stringify(servers))
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
    },
    async rssMb() {
      const status = await readFile(`/proc/${child.pid}/status`, 'utf8').catch(() => '')
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024
    },
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    },
  }
}
