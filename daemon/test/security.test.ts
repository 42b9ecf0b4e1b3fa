// The daemon's network surface and secrets, probed from outside with real sockets: token, Host and
// Origin checks, body limits, file modes, single instance, bind refusal and the WebShell headers.

import { connect } from 'node:net'
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  cleanup,
  fixture,
  runCli,
  send,
  startDaemon,
  tempDir,
  type RawResponse,
  type Daemon,
} from './harness.js'
import { startInProcess } from './in-process.js'

afterEach(cleanup)

/** Writes `text` to a raw TCP socket and returns the status code of the answer. */
function sendRaw(port: number, text: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text))
    let answer = ''
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()))
    socket.on('error', reject)
    socket.on('close', () => resolve(Number(/^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1] ?? 0)))
  })
}

function hostOf(daemon: Daemon): string {
  return `127.0.0.1:${daemon.info.port}`
}

function auth(daemon: Daemon): Record<string, string> {
  return { authorization: `Bearer ${daemon.info.token}` }
}

describe('the API token', () => {
  it('answers missing, malformed and wrong tokens with one identical 401 body and never a 500', async () => {
    const daemon = await startInProcess({ mcpServers: {} })
    const wrong = `${daemon.info.token.slice(0, -1)}${daemon.info.token.endsWith('A') ? 'B' : 'A'}`
    const variants: Array<Record<string, string>> = [
      {},
      { authorization: `Bearer ${wrong}` },
      { authorization: 'Bearer' },
      { authorization: 'Bearer ' },
      { authorization: 'Basic x' },
      { authorization: `Bearer ${'a'.repeat(10 * 1024)}` },
      { authorization: `Bearer ${daemon.info.token}x` },
      { authorization: `bearer ${daemon.info.token.toUpperCase()}` },
    ]
    const bodies = new Set<string>()
    for (const headers of variants) {
      for (const [method, path] of [
        ['GET', '/api/status'],
        ['POST', '/api/call'],
      ] as const) {
        const response = await send(daemon.info.port, {
          method,
          path,
          headers: { ...headers, 'content-type': 'application/json' },
          ...(method === 'POST' ? { body: '{"tool":"x"}' } : {}),
        })
        expect(
          response.status,
          `${method} ${path} with ${JSON.stringify(headers).slice(0, 60)}`,
        ).toBe(401)
        expect(response.body).not.toContain(daemon.info.token)
        bodies.add(response.body)
      }
    }
    expect([...bodies]).toHaveLength(1)
    expect(JSON.parse([...bodies][0] as string)).toEqual({
      error: { code: 'unauthorized', message: expect.any(String) },
    })
    const ok = await send(daemon.info.port, { path: '/api/status', headers: auth(daemon) })
    expect(ok.status).toBe(200)
  })
})

describe('the Host allowlist', () => {
  it('refuses forged Host headers with 403 on the API and on the static WebShell', async () => {
    const daemon = await startInProcess({ mcpServers: {} })
    const port = daemon.info.port
    const forged = [
      `evil.example:${port}`,
      `localhost:${port}`,
      `127.0.0.1:${port + 1}`,
      '127.0.0.1',
    ]
    for (const host of forged) {
      for (const path of [
        '/',
        '/index.html',
        '/app.js',
        '/api/status',
        '/api/servers',
        '/nowhere',
      ]) {
        // `/` under the sandbox host redirects to the WebShell (sandbox-proxy.test.ts).
        if (host === `localhost:${port}` && path === '/') continue
        const response = await send(port, { path, headers: { host, ...auth(daemon) } })
        expect(response.status, `${path} with Host ${host}`).toBe(403)
        expect(response.headers['x-content-type-options']).toBe('nosniff')
        expect(JSON.parse(response.body)).toEqual({
          error: { code: 'forbidden', message: expect.any(String) },
        })
      }
    }
    const genuine = await send(port, { path: '/', headers: { host: hostOf(daemon) } })
    expect(genuine.status).toBe(200)
  })

  it('does not let X-Forwarded-Host or Forwarded stand in for a forged Host', async () => {
    const daemon = await startInProcess({ mcpServers: {} })
    const response = await send(daemon.info.port, {
      path: '/api/status',
      headers: {
        host: `evil.example:${daemon.info.port}`,
        'x-forwarded-host': hostOf(daemon),
        forwarded: `host=${hostOf(daemon)}`,
        ...auth(daemon),
      },
    })
    expect(response.status).toBe(403)
  })

  it('refuses requests that carry no Host header at all', async () => {
    const daemon = await startInProcess({ mcpServers: {} })
    const port = daemon.info.port
    // HTTP/1.0 may omit Host, so the request reaches the app and its Host guard.
    for (const path of ['/', '/api/status']) {
      const status = await sendRaw(
        port,
        `GET ${path} HTTP/1.0\r\nAuthorization: Bearer ${daemon.info.token}\r\n\r\n`,
      )
      expect(status, `HTTP/1.0 ${path}`).toBe(403)
    }
    // HTTP/1.1 without Host is refused by Node itself (400) before the app sees it.
    const missing = await send(port, { path: '/api/status', headers: auth(daemon), setHost: false })
    expect([400, 403]).toContain(missing.status)
  })
})

describe('the Origin check', () => {
  it('refuses foreign and null origins even with a valid token, and sends no CORS headers', async () => {
    const daemon = await startInProcess({ mcpServers: {} })
    const port = daemon.info.port
    const responses: RawResponse[] = []
    const get = async (path: string, headers: Record<string, string>, method = 'GET') => {
      const response = await send(port, { method, path, headers })
      responses.push(response)
      return response.status
    }
    for (const origin of ['http://evil.example', 'null', `http://localhost:${port}`]) {
      expect(await get('/api/status', { origin, ...auth(daemon) }), origin).toBe(403)
      expect(await get('/', { origin }), `${origin} on /`).toBe(403)
    }
    const preflight = {
      origin: 'http://evil.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    }
    expect(await get('/api/call', preflight, 'OPTIONS')).toBe(403)
    expect(await get('/api/status', { origin: `http://${hostOf(daemon)}`, ...auth(daemon) })).toBe(
      200,
    )
    expect(await get('/api/status', auth(daemon))).toBe(200)
    expect(await get('/api/status', { origin: `http://${hostOf(daemon)}` })).toBe(401)
    for (const response of responses) {
      const cors = Object.keys(response.headers).filter((name) =>
        name.startsWith('access-control-'),
      )
      expect(cors).toEqual([])
    }
  })
})

describe('request bodies', () => {
  it('answers 415 to a non-JSON content type, 413 past 1 MiB and 400 to malformed JSON', async () => {
    const daemon = await startInProcess({ mcpServers: {} })
    const port = daemon.info.port
    const post = (contentType: string, body: string | Buffer, extra: Record<string, string> = {}) =>
      send(port, {
        method: 'POST',
        path: '/api/call',
        headers: { ...auth(daemon), 'content-type': contentType, ...extra },
        body,
      })

    const plain = await post('text/plain', '{"tool":"mcp_x_echo"}')
    expect(plain.status).toBe(415)
    expect(JSON.parse(plain.body).error.code).toBe('unsupported_media_type')

    const huge = JSON.stringify({
      tool: 'mcp_x_echo',
      arguments: { text: 'a'.repeat(1024 * 1024) },
    })
    const declared = await post('application/json', huge)
    expect(declared.status).toBe(413)
    expect(JSON.parse(declared.body).error.code).toBe('payload_too_large')
    // Chunked: no Content-Length to check up front, so the stream itself must be cut off.
    const chunked = await post('application/json', huge, { 'transfer-encoding': 'chunked' })
    expect(chunked.status).toBe(413)

    const malformed = await post('application/json', '{"tool": ')
    expect(malformed.status).toBe(400)
    expect(JSON.parse(malformed.body).error).toMatchObject({
      code: 'bad_request',
      message: expect.stringMatching(/malformed JSON/i),
    })
    expect((await daemon.api('/status')).status).toBe(200)
  })
})

describe('secrets at rest', () => {
  it('keeps the runtime file 0600 in a 0700 state directory, also once stopped', async () => {
    const daemon = await startInProcess({ mcpServers: {} })
    const runtimePath = join(daemon.stateDir, 'daemon.json')
    expect((await stat(daemon.stateDir)).mode & 0o777).toBe(0o700)
    expect((await stat(runtimePath)).mode & 0o777).toBe(0o600)
    // The token outlives the daemon in this file (for the next start), so it stays private.
    await daemon.stop()
    const kept = JSON.parse(await readFile(runtimePath, 'utf8'))
    expect(kept).toMatchObject({ token: daemon.info.token, stoppedAt: expect.any(String) })
    expect((await stat(runtimePath)).mode & 0o777).toBe(0o600)
    expect((await stat(daemon.stateDir)).mode & 0o777).toBe(0o700)
    const status = await daemon.cli(['status'])
    expect(status.code).toBe(2)
    expect(status.stdout + status.stderr).not.toContain(daemon.info.token)
  })

  it("keeps the token out of the daemon's argv, its log and a server's environment", async () => {
    // A process of its own: its argv is what is checked.
    const daemon = await startDaemon({ mcpServers: { x: fixture([]) } })
    await daemon.waitForStatus('x', 'ready')
    const token = daemon.info.token
    // Exercise the paths that log: a failed auth, a failing call, a good call.
    await send(daemon.info.port, {
      path: '/api/status',
      headers: { authorization: `Bearer ${token}x` },
    })
    await daemon.cli(['call', 'mcp_x_fail', '{}'])
    const env = await daemon.cli(['call', 'mcp_x_env', '{}'])
    expect(env.code).toBe(0)
    const childEnv = JSON.parse(env.stdout) as Record<string, string>
    expect(Object.keys(childEnv).length).toBeGreaterThan(0)
    expect(env.stdout).not.toContain(token)

    const argv = await readFile(`/proc/${daemon.info.pid}/cmdline`, 'utf8')
    expect(argv).toContain('serve')
    expect(argv).not.toContain(token)
    const log = await readFile(join(daemon.stateDir, 'daemon.log'), 'utf8')
    expect(log).toContain('daemon.started')
    expect(log).not.toContain(token)
  })
})

describe('one daemon per state directory', () => {
  it('refuses a second `ferry serve` on the same state directory with exit 2, naming the pid', async () => {
    const daemon = await startInProcess({ mcpServers: {} })
    const second = await runCli([
      'serve',
      '--state-dir',
      daemon.stateDir,
      '--config',
      daemon.configPath,
      '--port',
      '0',
    ])
    expect(second.code).toBe(2)
    expect(second.stderr).toContain(`pid ${daemon.info.pid}`)
    expect(second.stderr.trim().split('\n')).toHaveLength(1)
    // The first daemon is untouched and still owns the runtime file.
    expect((await daemon.api('/status')).status).toBe(200)
    const runtime = JSON.parse(await readFile(join(daemon.stateDir, 'daemon.json'), 'utf8'))
    expect(runtime.pid).toBe(daemon.info.pid)
  })

  it('refuses to bind a non-loopback address with exit 2 and starts nothing', async () => {
    const stateDir = await tempDir('ferry-state-')
    const refused = await runCli([
      'serve',
      '--state-dir',
      stateDir,
      '--host',
      '0.0.0.0',
      '--port',
      '0',
    ])
    expect(refused.stderr).toContain('0.0.0.0')
    await expect(stat(join(stateDir, 'daemon.json'))).rejects.toThrow()
    expect(refused.code).toBe(2)

    // Nor does it touch a stopped daemon's record, which holds the token for the next start.
    const daemon = await startInProcess({ mcpServers: {} })
    await daemon.stop()
    const runtimePath = join(daemon.stateDir, 'daemon.json')
    const before = await readFile(runtimePath, 'utf8')
    const again = await runCli([
      'serve',
      '--state-dir',
      daemon.stateDir,
      '--host',
      '0.0.0.0',
      '--port',
      '0',
    ])
    expect(again.code).toBe(2)
    expect(again.stderr).not.toContain(daemon.info.token)
    expect(await readFile(runtimePath, 'utf8')).toBe(before)
  })
})

describe('the static WebShell', () => {
  it('serves the page with a strict CSP, strict-origin referrer policy and nosniff', async () => {
    const daemon = await startInProcess({ mcpServers: {} })
    const response = await fetch(daemon.info.url)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/html/)
    const csp = response.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("frame-ancestors 'none'")
    const scriptSrc = csp
      .split(';')
      .map((directive) => directive.trim())
      .find((directive) => directive.startsWith('script-src'))
    expect(scriptSrc).toBeDefined()
    expect(scriptSrc).not.toContain("'unsafe-inline'")
    expect(scriptSrc).not.toContain("'unsafe-eval'")
    expect(response.headers.get('referrer-policy')).toBe('strict-origin')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('answers 404 to traversal and dotfile paths', async () => {
    const daemon = await startInProcess({ mcpServers: {} })
    const paths = [
      '/../../etc/passwd',
      '/../../../../../../etc/passwd',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/..%2f..%2f..%2fetc%2fpasswd',
      '/.env',
      '/.git/config',
      '/app.js/../../package.json',
      '/%2e%2e%2fpackage.json',
    ]
    for (const path of paths) {
      const response = await send(daemon.info.port, { path, headers: { host: hostOf(daemon) } })
      expect(response.status, path).toBe(404)
      expect(response.body).not.toMatch(/root:|"name"/)
    }
  })
})
