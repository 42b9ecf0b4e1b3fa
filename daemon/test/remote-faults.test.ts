import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { createInterface } from 'node:readline'
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, httpServerPath, httpStatusServerPath, readJsonLines, tempDir } from './harness.js'
import { startInProcess } from './in-process.js'

const children: ChildProcess[] = []
/** A loopback port nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise((resolve) => server.close(resolve))
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL')
  await cleanup()
})

/** Starts a fixture process and returns the base URL it prints on its first line. */
async function startFixture(path: string, args: string[] = []): Promise<string> {
  const child = spawn(process.execPath, [path, ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
  children.push(child)
  for await (const line of createInterface({ input: child.stdout })) {
    return (JSON.parse(line) as { url: string }).url
  }
  throw new Error(`${path} printed no url`)
}

describe('Streamable HTTP connect failures', () => {
  it('names the status and the start of the body for each HTTP error, and "modern only" only for a 400 with -32022', async () => {
    const base = await startFixture(httpStatusServerPath, ['--port', '0'])
    const paths = ['401', '401-basic', '403', '404', '405', '500']
    const daemon = await startInProcess({
      mcpServers: {
        ...Object.fromEntries(paths.map((p) => [`s${p}`, { httpUrl: `${base}/status/${p}` }])),
        modern: { httpUrl: `${base}/modern` },
        off: { httpUrl: `${base}/status/401`, oauth: { enabled: false } },
      },
    })
    const error = async (name: string) => (await daemon.waitForStatus(name, 'failed')).error ?? ''

    // A Bearer challenge asks for a sign-in; one this server cannot offer (it publishes no OAuth
    // metadata) says so, and still names `ferry login`.
    expect((await daemon.waitForStatus('s401', 'needs_login')).error).toBe(
      'the server asks for an OAuth sign-in, and preparing it failed (Dynamic Client Registration rejected (HTTP 404): 404 Not Found): run `ferry login s401` to sign in',
    )
    const off = await error('off')
    expect(off).toMatch(/^HTTP 401 Unauthorized: \{"error":"invalid_token"/)
    expect(off).toContain(
      'sign-in is off for "off" ("oauth": { "enabled": false }); turn it on and run `ferry login off`',
    )
    const basic = await error('s401-basic')
    expect(basic).toBe(
      'HTTP 401 Unauthorized: Authentication required.; check the credentials in "headers" for "s401-basic"',
    )
    expect(await error('s403')).toMatch(
      /^HTTP 403 Forbidden: <html><body><h1>403 Forbidden<\/h1> <p>Your address/,
    )
    expect(await error('s404')).toMatch(
      /^HTTP 404 Not Found: Cannot POST \/wrong-path; check the URL/,
    )
    expect(await error('s405')).toMatch(/^HTTP 405 Method Not Allowed: \{"jsonrpc":"2.0"/)
    const crashed = await error('s500')
    expect(crashed).toMatch(/^HTTP 500 Internal Server Error: Internal Server Error: stack frame/)
    // The body is quoted up to 200 characters, then cut.
    expect(crashed.length).toBeLessThan('HTTP 500 Internal Server Error: '.length + 200 + 2)
    expect(crashed.endsWith('…')).toBe(true)
    for (const name of paths.filter((p) => p !== '401').map((p) => `s${p}`)) {
      expect(await error(name)).not.toContain('2026-07-28')
    }
    expect(await error('modern')).toBe(
      'the server speaks only protocol 2026-07-28; set "versionNegotiation": "auto" for "modern" in settings',
    )
  })

  it('says the server cannot be reached when nothing listens on its port', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/mcp`
    const daemon = await startInProcess({ mcpServers: { nowhere: { httpUrl: url } } })
    expect((await daemon.waitForStatus('nowhere', 'failed')).error).toBe(
      `cannot reach ${url}: connection refused (ECONNREFUSED)`,
    )
  })
})

interface Handled {
  method: string
  pid: number
}

/** The HTTP fixture on a fixed port, so it can be stopped and started again at the same URL. */
async function httpFixture(args: string[]): Promise<{
  url: string
  restart(): Promise<void>
  kill(): Promise<void>
}> {
  let child: ChildProcess | undefined
  const start = async (port: number) => {
    child = spawn(process.execPath, [httpServerPath, '--port', String(port), ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    children.push(child)
    for await (const line of createInterface({ input: child.stdout as NodeJS.ReadableStream })) {
      return (JSON.parse(line) as { url: string }).url
    }
    throw new Error('http fixture printed no url')
  }
  const kill = async () => {
    const running = child
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return
    const exited = new Promise((resolve) => running.once('exit', resolve))
    running.kill('SIGKILL')
    await exited
  }
  const url = await start(0)
  const port = Number(new URL(url).port)
  return {
    url,
    kill,
    restart: async () => {
      await kill()
      await start(port)
    },
  }
}

/** How many of the http fixture's /mcp answers are still being sent. */
async function inFlight(url: string): Promise<number> {
  const response = await fetch(new URL('/in-flight', url))
  return ((await response.json()) as { inFlight: number }).inFlight
}

describe('Streamable HTTP servers that restart or go down', () => {
  it('makes a new session when a restarted server answers 404, and sends the call that met it once more', async () => {
    const handled = `${await tempDir()}/handled.jsonl`
    // No standing event stream, so nothing but the call itself can notice the restart.
    const server = await httpFixture(['--no-get-stream', '--handled', handled])
    const daemon = await startInProcess({ mcpServers: { remote: { httpUrl: server.url } } })
    await daemon.waitForStatus('remote', 'ready')
    expect((await daemon.cli(['call', 'mcp_remote_echo', '{"text":"first"}'])).stdout).toBe(
      'first\n',
    )
    // The first call's answer has been sent to its end: a kill before the end of its event stream
    // would break that stream, and the daemon would notice the restart through it, not the call.
    await expect.poll(() => inFlight(server.url)).toBe(0)

    await server.restart()
    const second = await daemon.cli(['call', 'mcp_remote_echo', '{"text":"second"}'])
    expect(second, second.stderr).toMatchObject({ code: 0, stdout: 'second\n' })

    const calls = (await readJsonLines<Handled>(handled)).filter((h) => h.method === 'tools/call')
    expect(calls).toHaveLength(2)
    // One call per server process: the restarted one ran the second call exactly once.
    expect(new Set(calls.map((call) => call.pid)).size).toBe(2)
    const log = await readJsonLines(`${daemon.stateDir}/daemon.log`)
    expect(log).toContainEqual(expect.objectContaining({ kind: 'server.session_lost' }))
    expect((await daemon.servers()).find((s) => s.name === 'remote')?.status).toBe('ready')
  })

  it('resends a call only once when the new session is lost as well, and says so', async () => {
    const server = await httpFixture(['--no-get-stream', '--forget-session-on-call'])
    const daemon = await startInProcess({ mcpServers: { remote: { httpUrl: server.url } } })
    await daemon.waitForStatus('remote', 'ready')
    const call = await daemon.cli(['call', 'mcp_remote_echo', '{"text":"lost twice"}'])
    expect(call.code).not.toBe(0)
    expect(call.stderr).toContain('server "remote": HTTP 404 Not Found: ')
    const captured = (await (await fetch(new URL('/captured', server.url))).json()) as Array<{
      methods: string[]
      'mcp-session-id': string | null
    }>
    // The first session, and the one made for the resend; each lost the call.
    const calls = captured.filter((post) => post.methods.includes('tools/call'))
    expect(calls).toHaveLength(2)
    expect(new Set(calls.map((post) => post['mcp-session-id'])).size).toBe(2)
  })

  it('marks a server that went down failed, fails calls at once naming why, and reconnects by itself when it is back', async () => {
    const server = await httpFixture([])
    const daemon = await startInProcess({ mcpServers: { remote: { httpUrl: server.url } } })
    await daemon.waitForStatus('remote', 'ready')
    expect((await daemon.cli(['call', 'mcp_remote_echo', '{"text":"up"}'])).stdout).toBe('up\n')

    await server.kill()
    // The broken event stream makes Ferry check the server: no call is needed to notice.
    const failed = await daemon.waitForEvent(
      (event) =>
        event.type === 'server.status' && event.server === 'remote' && event.status === 'failed',
    )
    // Which the daemon meets first, the broken stream or a refused check, is the network's choice;
    // a check sent on a kept-alive connection the kill closed meets it dropped.
    const unreachable =
      /connection (refused \(ECONNREFUSED\)|reset \(ECONNRESET\)|dropped \(UND_ERR_SOCKET\))/
    expect(failed).toMatchObject({ error: expect.stringMatching(unreachable) })

    const down = await daemon.cli(['call', 'mcp_remote_echo', '{"text":"down"}'])
    expect(down.code).not.toBe(0)
    expect(down.stderr).toMatch(/server "remote" is (failed|connecting)/)
    expect(down.stderr).toMatch(unreachable)

    await server.restart()
    await daemon.waitForStatus('remote', 'ready', 40_000)
    expect((await daemon.cli(['call', 'mcp_remote_echo', '{"text":"back"}'])).stdout).toBe('back\n')
    const retries = (await readJsonLines(`${daemon.stateDir}/daemon.log`)).filter(
      (line) => line.kind === 'server.retry' && line.server === 'remote',
    )
    expect(retries.length).toBeGreaterThanOrEqual(1)
    expect(retries[0]).toMatchObject({ delayMs: 500 })
  })
})

describe('remote servers and the 2026-07-28 protocol', () => {
  it('connects a server that speaks only 2026-07-28 with "auto", and calls it in that era', async () => {
    const base = await startFixture(httpStatusServerPath, ['--port', '0'])
    const daemon = await startInProcess({
      mcpServers: {
        strict: { url: `${base}/modern`, versionNegotiation: 'auto', trust: true },
      },
    })
    expect(await daemon.waitForStatus('strict', 'ready')).toMatchObject({
      era: 'modern',
      protocolVersion: '2026-07-28',
      negotiation: 'auto',
    })
    expect((await daemon.cli(['call', 'mcp_strict_echo', '{"text":"now"}'])).stdout).toBe('now\n')
  })

  it('initializes a 2025 server that ignores server/discover once the probe bound passes, and remembers it', async () => {
    const base = await startFixture(httpStatusServerPath, ['--port', '0'])
    const daemon = await startInProcess({
      mcpServers: {
        quiet: {
          httpUrl: `${base}/silent`,
          versionNegotiation: 'auto',
          discoveryTimeoutMs: 4000,
          trust: true,
        },
      },
    })
    expect(await daemon.waitForStatus('quiet', 'ready')).toMatchObject({ era: 'legacy' })
    expect((await daemon.cli(['call', 'mcp_quiet_echo', '{"text":"old"}'])).stdout).toBe('old\n')
    const probes = async () =>
      ((await (await fetch(`${base}/silent/probes`)).json()) as { probes: number }).probes
    expect(await probes()).toBe(1)
    const log = await readJsonLines(`${daemon.stateDir}/daemon.log`)
    expect(log).toContainEqual(
      expect.objectContaining({
        kind: 'server.era_fallback',
        server: 'quiet',
        evidence: 'no answer to server/discover within the probe bound',
      }),
    )
    // The verdict is remembered for its URL: connecting again sends no probe.
    expect((await daemon.cli(['reconnect', 'quiet'])).stdout).toBe('quiet: ready\n')
    expect(await probes()).toBe(1)
  })

  it('reports both answers when a bare url fails over Streamable HTTP and then over SSE', async () => {
    const base = await startFixture(httpStatusServerPath, ['--port', '0'])
    const daemon = await startInProcess({
      mcpServers: {
        wrong: { url: `${base}/status/404` },
        sseMissing: { url: `${base}/status/404`, type: 'sse' },
        sseBroken: { url: `${base}/status/500`, type: 'sse' },
      },
    })
    expect((await daemon.waitForStatus('wrong', 'failed')).error).toBe(
      `Streamable HTTP POST answered HTTP 404 Not Found: Cannot POST /wrong-path, then the SSE fallback's GET answered HTTP 404; check the URL of "wrong" in settings: it should be the server's MCP endpoint (a server that speaks only 2026-07-28 is reached with "versionNegotiation": "auto")`,
    )
    expect((await daemon.waitForStatus('sseMissing', 'failed')).error).toBe(
      `SSE GET ${base}/status/404 answered HTTP 404; check the URL of "sseMissing" in settings: it should be the server's SSE endpoint`,
    )
    expect((await daemon.waitForStatus('sseBroken', 'failed')).error).toBe(
      `SSE GET ${base}/status/500 answered HTTP 500; the server failed; see its own logs`,
    )
  })
})
