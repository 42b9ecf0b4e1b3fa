// A restarted daemon keeps the previous run's token and port, so an open WebShell tab (same origin,
// token in sessionStorage) carries on; `--new-token` revokes it; an untrustworthy runtime file or a
// taken port is never a reason to reuse a token or to fail the start; a tab asking the moment the
// port opens again is answered, not turned away.

import { createServer, type Server } from 'node:net'
import { chmod, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { STREAM_AUTH_PREFIX, STREAM_PROTOCOL } from '../src/protocol/index.js'
import { readRuntimeFile, type RuntimeInfo } from '../src/daemon/runtime-file.js'
import { isWellFormedToken } from '../src/daemon/token.js'
import { startInProcess } from './in-process.js'
import {
  adoptDetached,
  cleanupWithDetached,
  isAlive,
  runCli,
  send,
  startDaemon,
  tempDir,
} from './harness.js'

afterEach(cleanupWithDetached)

/** A state directory driven through `ferry start` and `ferry stop`, as a user would. */
async function backgroundDaemon() {
  const stateDir = await tempDir('ferry-state-')
  const configPath = join(await tempDir('ferry-config-'), 'settings.json')
  await writeFile(configPath, JSON.stringify({ mcpServers: {} }))
  const cli = (args: string[]) => runCli(['--state-dir', stateDir, '--config', configPath, ...args])
  return {
    stateDir,
    cli,
    async start(args: string[] = []): Promise<RuntimeInfo> {
      const result = await cli(['start', ...args])
      const info = await readRuntimeFile(stateDir)
      if (info !== undefined) adoptDetached(info.pid)
      expect(result.code, result.stderr).toBe(0)
      expect(info).toBeDefined()
      expect(result.stdout).toContain(`WebShell: ${info?.url}#token=${info?.token}`)
      return info as RuntimeInfo
    },
    async stop(info: RuntimeInfo): Promise<void> {
      const result = await cli(['stop'])
      expect(result.code, result.stderr).toBe(0)
      expect(isAlive(info.pid)).toBe(false)
    },
  }
}

/** `ferry serve --port <port>` on a fresh state directory with `settings`, as a process. */
async function serveElsewhereOn(settings: unknown, port: number) {
  const configPath = join(await tempDir('ferry-config-'), 'settings.json')
  await writeFile(configPath, JSON.stringify(settings))
  return runCli([
    'serve',
    '--state-dir',
    await tempDir('ferry-state-'),
    '--config',
    configPath,
    '--port',
    String(port),
  ])
}

/** What an open WebShell tab sends: its own origin and the token it keeps. */
function fromTab(url: string, token: string): Promise<Response> {
  return fetch(new URL('api/status', url), {
    headers: { authorization: `Bearer ${token}`, origin: new URL(url).origin },
  })
}

async function recordOf(stateDir: string): Promise<RuntimeInfo> {
  return JSON.parse(await readFile(join(stateDir, 'daemon.json'), 'utf8')) as RuntimeInfo
}

function listenOn(port: number, host = '127.0.0.1'): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(port, host, () => resolve(server))
  })
}

/** The HTTP status a stream upgrade gets: 101 when it opens. */
function upgradeStatus(url: string, token: string, host: string | undefined): Promise<number> {
  return new Promise((resolve) => {
    const headers = host === undefined ? {} : { host }
    const ws = new WebSocket(url, [STREAM_PROTOCOL, `${STREAM_AUTH_PREFIX}${token}`], { headers })
    ws.on('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0)
      ws.terminate()
    })
    ws.on('open', () => {
      ws.close()
      resolve(101)
    })
    ws.on('error', () => resolve(0))
  })
}

/** Whether this machine has an IPv6 loopback address a server (and a browser) can use. */
async function hasIpv6Loopback(): Promise<boolean> {
  try {
    const probe = await listenOn(0, '::1')
    await new Promise((resolve) => probe.close(resolve))
    return true
  } catch {
    return false
  }
}

describe('restarting the daemon', () => {
  it('keeps token and port across stop and start, so an open tab still authenticates', async () => {
    const daemon = await backgroundDaemon()
    const first = await daemon.start()
    expect((await fromTab(first.url, first.token)).status).toBe(200)
    await daemon.stop(first)
    expect((await recordOf(daemon.stateDir)).stoppedAt).toEqual(expect.any(String))

    const second = await daemon.start()
    expect(second.pid).not.toBe(first.pid)
    expect(second.port).toBe(first.port)
    expect(second.url).toBe(first.url)
    expect(second.token).toBe(first.token)
    expect(second.stoppedAt).toBeNull()
    // The tab's old URL and token reach the new daemon, with the Origin it always sent.
    const answer = await fromTab(first.url, first.token)
    expect(answer.status).toBe(200)
    expect(((await answer.json()) as { pid: number }).pid).toBe(second.pid)
    expect((await stat(join(daemon.stateDir, 'daemon.json'))).mode & 0o777).toBe(0o600)
  })

  it('replaces the token with --new-token, after which the old one gets 401', async () => {
    const daemon = await backgroundDaemon()
    const first = await daemon.start()
    await daemon.stop(first)

    const rotated = await daemon.start(['--new-token'])
    expect(rotated.token).not.toBe(first.token)
    expect(isWellFormedToken(rotated.token)).toBe(true)
    expect(rotated.port).toBe(first.port)
    expect((await fromTab(rotated.url, first.token)).status).toBe(401)
    expect((await fromTab(rotated.url, rotated.token)).status).toBe(200)

    // A running daemon cannot have its token replaced by `start`: say so rather than pretend.
    const refused = await daemon.cli(['start', '--new-token'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/already running .*ferry stop/)
    expect(refused.stdout).toBe('')
    expect(refused.stderr).not.toContain(rotated.token)
    expect((await readRuntimeFile(daemon.stateDir))?.token).toBe(rotated.token)

    // `ferry serve --new-token` revokes the same way.
    await daemon.stop(rotated)
    const served = await startDaemon(
      { mcpServers: {} },
      { stateDir: daemon.stateDir, args: ['--new-token'] },
    )
    expect(served.info.token).not.toBe(rotated.token)
    expect((await fromTab(served.info.url, rotated.token)).status).toBe(401)
  })

  it('does not reuse the token of a runtime file that is not 0600 or not a plain file', async () => {
    const settings = { mcpServers: {} }
    // In-process: what is read and written is the runtime file, whichever process runs the daemon.
    const first = await startInProcess(settings)
    const { stateDir } = first
    const path = join(stateDir, 'daemon.json')
    await first.stop()
    // Control: the same steps with an intact file do reuse the token.
    const control = await startInProcess(settings, { stateDir })
    expect(control.info.token).toBe(first.info.token)
    await control.stop()

    await chmod(path, 0o644)
    const readable = await startInProcess(settings, { stateDir })
    expect(readable.info.token).not.toBe(first.info.token)
    expect((await stat(path)).mode & 0o777).toBe(0o600)
    expect((await fromTab(readable.info.url, first.info.token)).status).toBe(401)
    await readable.stop()

    // A symbolic link to a private, well-formed record is not the runtime file either.
    const stopped = await recordOf(stateDir)
    const elsewhere = join(await tempDir(), 'daemon.json')
    await writeFile(elsewhere, JSON.stringify(stopped), { mode: 0o600 })
    await rm(path)
    await symlink(elsewhere, path)
    const linked = await startInProcess(settings, { stateDir })
    expect(linked.info.token).not.toBe(stopped.token)
  })

  it('does not reuse a malformed token from the runtime file', async () => {
    const settings = { mcpServers: {} }
    // In-process: what is read and written is the runtime file, whichever process runs the daemon.
    const first = await startInProcess(settings)
    const { stateDir } = first
    const path = join(stateDir, 'daemon.json')
    await first.stop()
    const malformed = [
      'short',
      `${first.info.token.slice(0, 42)}!`,
      `${first.info.token}A`,
      // 43 characters of the alphabet, but not what encoding 32 bytes produces (stray low bits).
      `${'A'.repeat(42)}B`,
    ]
    for (const token of malformed) {
      const record = await recordOf(stateDir)
      await writeFile(path, JSON.stringify({ ...record, token }))
      expect((await stat(path)).mode & 0o777).toBe(0o600)
      const next = await startInProcess(settings, { stateDir })
      expect(next.info.token, JSON.stringify(token)).not.toBe(token)
      expect(isWellFormedToken(next.info.token)).toBe(true)
      await next.stop()
    }
  })

  it('starts on another port with a new token when the previous port is taken', async () => {
    // In-process: the choice of port and token is the same whichever process runs the daemon;
    // `ferry serve`'s exit status below is its process's.
    const settings = { mcpServers: {} }
    const started = await startInProcess(settings)
    const { stateDir } = started
    const first = started.info
    await started.stop()

    const blocker = await listenOn(first.port)
    try {
      const second = (await startInProcess(settings, { stateDir })).info
      expect(second.port).not.toBe(first.port)
      // The old token could have gone to whatever holds the old port: it is not accepted.
      expect(second.token).not.toBe(first.token)
      expect((await fromTab(second.url, first.token)).status).toBe(401)
      expect((await fromTab(second.url, second.token)).status).toBe(200)
      const log = await readFile(join(stateDir, 'daemon.log'), 'utf8')
      expect(log).toContain('daemon.port_unavailable')
      expect(log).not.toContain(first.token)

      // An explicit port is still a promise: taken means an error, not another port.
      const explicit = await serveElsewhereOn(settings, first.port)
      expect(explicit.code).toBe(2)
      expect(explicit.stderr).toContain(`cannot listen on 127.0.0.1:${first.port}`)
    } finally {
      await new Promise((resolve) => blocker.close(resolve))
    }
  })

  it('holds its port on the other loopback family, where `localhost` may lead, answers only the sandbox host name there, and moves off one taken there', async () => {
    // In-process: what listens where is the same whichever process runs the daemon; `ferry
    // serve`'s exit status below is its process's.
    const settings = { mcpServers: {} }
    const started = await startInProcess(settings)
    const { stateDir } = started
    const first = started.info
    if (!(await hasIpv6Loopback())) {
      // No ::1 here: no browser can reach it either, and the daemon says it has no twin.
      const log = await readFile(join(stateDir, 'daemon.log'), 'utf8')
      expect(log).toContain('daemon.no_twin')
      return
    }
    // On ::1 the daemon answers for the sandbox host name as on 127.0.0.1, and nothing else.
    const proxy = await send(first.port, {
      address: '::1',
      path: '/sandbox-proxy',
      headers: { host: `localhost:${first.port}` },
    })
    expect(proxy.status).toBe(200)
    expect(proxy.body).toContain('ui/notifications/sandbox-proxy-ready')
    // Neither IP literal reaches the WebShell, the API or the stream there, token or not.
    for (const host of [`[::1]:${first.port}`, `127.0.0.1:${first.port}`]) {
      const api = await send(first.port, {
        address: '::1',
        path: '/api/status',
        headers: { host, authorization: `Bearer ${first.token}` },
      })
      expect(api.status, host).toBe(403)
      expect(api.body, host).not.toContain(String(first.pid))
      const page = await send(first.port, { address: '::1', path: '/', headers: { host } })
      expect(page.status, host).toBe(403)
      expect(
        await upgradeStatus(`ws://[::1]:${first.port}/api/stream`, first.token, host),
      ).not.toBe(101)
    }
    // The control: the same upgrade on the WebShell's own address opens.
    expect(
      await upgradeStatus(`ws://127.0.0.1:${first.port}/api/stream`, first.token, undefined),
    ).toBe(101)
    await started.stop()

    const blocker = await listenOn(first.port, '::1')
    try {
      const second = (await startInProcess(settings, { stateDir })).info
      expect(second.port).not.toBe(first.port)
      expect(second.token).not.toBe(first.token)
      const log = await readFile(join(stateDir, 'daemon.log'), 'utf8')
      expect(log).toMatch(/daemon\.port_unavailable.*taken on ::1/)

      const explicit = await serveElsewhereOn(settings, first.port)
      expect(explicit.code).toBe(2)
      expect(explicit.stderr).toContain(
        `cannot listen on 127.0.0.1:${first.port}: port ${first.port} is taken on ::1`,
      )
    } finally {
      await new Promise((resolve) => blocker.close(resolve))
    }
  })

  it('answers a tab that asks the moment its port opens again, never with "not ready"', async () => {
    // In-process: the order of listening and being ready is the daemon's, not its process's.
    const first = await startInProcess({ mcpServers: {} })
    const { port, token } = first.info
    await first.stop()
    // A tab retrying as fast as it can while the daemon comes back on the same port.
    const statuses = new Set<number>()
    let polling = true
    const poll = (async () => {
      while (polling) {
        const answer = await send(port, {
          path: '/api/status',
          headers: { authorization: `Bearer ${token}`, origin: `http://127.0.0.1:${port}` },
        }).catch(() => undefined)
        if (answer !== undefined) statuses.add(answer.status)
        if (statuses.has(200)) return
      }
    })()
    const second = await startInProcess({ mcpServers: {} }, { stateDir: first.stateDir })
    expect(second.info.port).toBe(port)
    await poll
    polling = false
    expect([...statuses]).toEqual([200])
  })
})
