// `mcp-proxy` (npm) serving the stdio echo fixture on `/mcp` as its CLI does, in a child process of
// its own, as the gateway benchmark's baseline.

import { spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { fixtureServer } from './bench-env.js'

const proxyBin = fileURLToPath(new URL('bin/mcp-proxy.mjs', import.meta.resolve('mcp-proxy')))

export interface McpProxy {
  url: string
  pid: number
  rssMb(): Promise<number>
  stop(): Promise<void>
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

export async function startMcpProxy(): Promise<McpProxy> {
  const port = await freePort()
  const child = spawn(
    process.execPath,
    [
      proxyBin,
      ...['--host', '127.0.0.1', '--port', String(port), '--server', 'stream'],
      '--',
      process.execPath,
      fixtureServer,
    ],
    { stdio: 'ignore' },
  )
  const base = `http://127.0.0.1:${port}`
  // `/ping` answers once the upstream is connected and the HTTP server listens.
  for (;;) {
    if (child.exitCode !== null) throw new Error('mcp-proxy exited while starting')
    const up = await fetch(`${base}/ping`).then(
      (response) => response.ok,
      () => false,
    )
    if (up) break
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return {
    url: `${base}/mcp`,
    pid: child.pid as number,
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
