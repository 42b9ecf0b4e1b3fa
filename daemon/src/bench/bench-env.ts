// Shared set-up for benchmarks: fixture paths, temporary settings, and a daemon child process.

import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { readRuntimeFile, type RuntimeInfo } from '../daemon/runtime-file.js'
import type { ServerInfo } from '../protocol/index.js'

export const fixtureServer = fileURLToPath(
  new URL('../../../e2e/dist/fixtures/stdio-server.js', import.meta.url),
)
const ferryBin = fileURLToPath(new URL('../../bin/ferry.js', import.meta.url))

export function fixtureEntry(flags: string[], extra: Record<string, unknown> = {}) {
  return { command: process.execPath, args: [fixtureServer, ...flags], ...extra }
}

export interface BenchDaemon {
  info: RuntimeInfo
  child: ChildProcess
  api<T>(path: string, body?: unknown): Promise<T>
  waitAllReady(count: number): Promise<ServerInfo[]>
  stop(): Promise<void>
}

export async function startBenchDaemon(settings: unknown): Promise<BenchDaemon> {
  const dir = await mkdtemp(join(tmpdir(), 'ferry-bench-'))
  const config = join(dir, 'settings.json')
  await writeFile(config, JSON.stringify(settings))
  const stateDir = join(dir, 'state')
  const child = spawn(
    process.execPath,
    [ferryBin, 'serve', '--state-dir', stateDir, '--config', config, '--port', '0'],
    { stdio: 'ignore' },
  )
  let runtime: RuntimeInfo | undefined
  while (runtime === undefined) {
    if (child.exitCode !== null) throw new Error('the daemon exited while starting')
    await new Promise((resolve) => setTimeout(resolve, 10))
    const info = await readRuntimeFile(stateDir)
    if (info?.pid === child.pid) runtime = info
  }
  const url = runtime.url
  const token = runtime.token
  const api = async <T>(path: string, body?: unknown): Promise<T> => {
    const response = await fetch(new URL(`api${path}`, url), {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`)
    return (await response.json()) as T
  }
  return {
    info: runtime,
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
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    },
  }
}
