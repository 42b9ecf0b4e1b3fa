// The gateways the gateway benchmark measures Ferry against, each an npm package (a dev dependency
// at an exact version) run by its own CLI in a child process, serving the stdio echo fixture on
// HTTP: mcp-proxy (`--server stream`, Streamable HTTP in both eras on `/mcp`), mcp-hub (its unified
// `/mcp`, an HTTP+SSE endpoint, tools named `<server>__<tool>`) and supergateway (stdio → Streamable
// HTTP, stateful).

import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { fixtureServer } from './bench-env.js'

export const PEERS = ['mcp-proxy', 'mcp-hub', 'supergateway'] as const
export type PeerName = (typeof PEERS)[number]

export interface PeerGateway {
  name: PeerName
  url: string
  /** How a client reaches `url`: Streamable HTTP, or the HTTP+SSE transport (2025 era only). */
  transport: 'streamable-http' | 'sse'
  /**
   * Whether it serves 2026-07-28 clients as a gateway. supergateway answers them, but with no
   * session it starts the server anew for every request: about 380 ms a call on a 2-core machine.
   */
  modern: boolean
  /** The echo tool's name through this gateway. */
  tool: string
  pid: number
  rssMb(): Promise<number>
  stop(): Promise<void>
}

/** The CLI a package names in its `bin`, found in the nearest `node_modules` holding the package. */
function binOf(pkg: string): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const manifest = join(dir, 'node_modules', pkg, 'package.json')
    if (existsSync(manifest)) {
      const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as {
        bin: string | Record<string, string>
      }
      const path = typeof bin === 'string' ? bin : bin[pkg]
      if (path === undefined) throw new Error(`${pkg} names no CLI "${pkg}"`)
      return join(dirname(manifest), path)
    }
    if (dirname(dir) === dir) throw new Error(`${pkg} is not installed; run pnpm install`)
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no port')),
      )
    })
  })
}

/** Polls `ready` until it holds; the process exiting first is a failure. */
async function untilReady(name: string, child: ChildProcess, ready: () => Promise<boolean>) {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited while starting`)
    if (await ready().catch(() => false)) return
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

async function launch(
  name: PeerName,
  port: number,
): Promise<{ child: ChildProcess; tool: string }> {
  const fixture = [process.execPath, fixtureServer]
  const base = `http://127.0.0.1:${port}`
  switch (name) {
    case 'mcp-proxy': {
      const child = spawn(
        process.execPath,
        [
          binOf('mcp-proxy'),
          ...['--host', '127.0.0.1', '--port', String(port), '--server', 'stream'],
          '--',
          ...fixture,
        ],
        { stdio: 'ignore' },
      )
      // `/ping` answers once the upstream is connected and the HTTP server listens.
      await untilReady(name, child, async () => (await fetch(`${base}/ping`)).ok)
      return { child, tool: 'echo' }
    }
    case 'mcp-hub': {
      const dir = await mkdtemp(join(tmpdir(), 'ferry-bench-hub-'))
      const config = join(dir, 'servers.json')
      const [command, ...args] = fixture
      await writeFile(config, JSON.stringify({ mcpServers: { fx: { command, args } } }))
      const child = spawn(
        process.execPath,
        [binOf('mcp-hub'), '--port', String(port), '--config', config],
        // Its logs and workspace cache go under XDG_STATE_HOME.
        { stdio: 'ignore', env: { ...process.env, XDG_STATE_HOME: dir } },
      )
      await untilReady(name, child, async () => {
        const health = (await (await fetch(`${base}/api/health`)).json()) as {
          servers?: { name: string; status: string }[]
        }
        return health.servers?.some((s) => s.name === 'fx' && s.status === 'connected') === true
      })
      return { child, tool: 'fx__echo' }
    }
    case 'supergateway': {
      const child = spawn(
        process.execPath,
        [
          binOf('supergateway'),
          ...['--stdio', fixture.join(' '), '--outputTransport', 'streamableHttp', '--stateful'],
          ...['--port', String(port), '--healthEndpoint', '/healthz', '--logLevel', 'none'],
        ],
        { stdio: 'ignore' },
      )
      await untilReady(name, child, async () => (await fetch(`${base}/healthz`)).ok)
      return { child, tool: 'echo' }
    }
  }
}

export async function startPeer(name: PeerName): Promise<PeerGateway> {
  const port = await freePort()
  const { child, tool } = await launch(name, port)
  return {
    name,
    url: `http://127.0.0.1:${port}/mcp`,
    transport: name === 'mcp-hub' ? 'sse' : 'streamable-http',
    modern: name === 'mcp-proxy',
    tool,
    pid: child.pid as number,
    async rssMb() {
      const status = await readFile(`/proc/${child.pid}/status`, 'utf8').catch(() => '')
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    },
  }
}
