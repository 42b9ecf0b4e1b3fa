import { createHash } from 'node:crypto'
import { readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { STREAM_AUTH_PREFIX, STREAM_PROTOCOL } from '../src/protocol/index.js'
import { cleanup, fixture, readJsonLines, send, tempDir, waitFor, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'
import {
  createToken,
  errorOf,
  INITIALIZE,
  mcp,
  modernBody,
  modernHeaders,
  openLegacySession,
  sdkClient,
  sessionHeaders,
} from './gateway-wire.js'

/** Every file under `dir`, as text. */
async function everyFile(dir: string): Promise<Array<{ path: string; text: string }>> {
  const files: Array<{ path: string; text: string }> = []
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    files.push({ path, text: await readFile(path, 'utf8') })
  }
  return files
}

function upgrade(daemon: Daemon, token: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(new URL('/api/stream', daemon.info.url.replace('http', 'ws')), [
      STREAM_PROTOCOL,
      `${STREAM_AUTH_PREFIX}${token}`,
    ])
    ws.on('unexpected-response', (_request, response) => {
      let body = ''
      response.on('data', (chunk: Buffer) => (body += chunk.toString()))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
    })
    ws.on('open', () => {
      ws.close()
      resolve({ status: 101, body: '' })
    })
    ws.on('error', () => {})
  })
}

describe('who may use the gateway', () => {
  let daemon: Daemon
  let alphaRecord: string
  let betaRecord: string

  beforeAll(async () => {
    const dir = await tempDir()
    alphaRecord = join(dir, 'alpha.jsonl')
    betaRecord = join(dir, 'beta.jsonl')
    daemon = await startInProcess({
      mcpServers: {
        alpha: fixture(['--record', alphaRecord]),
        beta: fixture(['--record', betaRecord]),
      },
    })
    await daemon.waitForStatus('alpha', 'ready')
    await daemon.waitForStatus('beta', 'ready')
  })
  afterAll(cleanup)

  it('refuses the admin token on /mcp, and a gateway token on /api and on the WebSocket stream, with 401', async () => {
    const token = await createToken(daemon, 'auth-split')
    const admin = await mcp(daemon, daemon.info.token, { body: INITIALIZE })
    expect(admin.status).toBe(401)
    expect(admin.headers.get('www-authenticate')).toMatch(/^Bearer/)
    expect(errorOf(admin).message).toMatch(/admin token, which \/mcp never accepts/)
    const none = await mcp(daemon, null, { body: INITIALIZE })
    expect(none.status).toBe(401)
    expect(errorOf(none).message).toMatch(/ferry gateway token create/)

    const api = await fetch(new URL('/api/status', daemon.info.url), {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(api.status).toBe(401)
    expect(await api.text()).toContain('a gateway token opens /mcp only')
    const stream = await upgrade(daemon, token)
    expect(stream.status).toBe(401)
    expect(stream.body).toContain('a gateway token opens /mcp only')
    // The same token opens /mcp, and the admin token the stream.
    expect((await mcp(daemon, token, { body: INITIALIZE })).status).toBe(200)
    expect((await upgrade(daemon, daemon.info.token)).status).toBe(101)
  })

  it('refuses every Origin on /mcp, the WebShell’s own included, and a forged Host, with 403', async () => {
    const token = await createToken(daemon, 'auth-origin')
    const port = daemon.info.port
    const post = (headers: Record<string, string>, address?: string) =>
      send(port, {
        method: 'POST',
        path: '/mcp',
        ...(address === undefined ? {} : { address }),
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${token}`,
          ...headers,
        },
        body: JSON.stringify(INITIALIZE),
      })
    for (const origin of [
      `http://127.0.0.1:${port}`,
      'http://localhost:5173',
      'https://attacker.example',
      'null',
    ]) {
      const refused = await post({ origin })
      expect(refused.status, origin).toBe(403)
      // The WebShell's own origin passes the daemon-wide guard and meets the gateway's.
      expect(refused.body).toContain(
        origin === `http://127.0.0.1:${port}` ? 'not web pages' : 'forbidden origin',
      )
      expect(Object.keys(refused.headers).some((h) => h.startsWith('access-control-'))).toBe(false)
    }
    for (const host of ['attacker.example', `localhost:${port + 1}`, `127.0.0.1:${port + 1}`]) {
      expect((await post({ host })).status, host).toBe(403)
    }
    // The sandbox host name serves the App proxy only, on either listener.
    const sandbox = await post({ host: `localhost:${port}` })
    expect(sandbox.status).toBe(403)
    expect(sandbox.body).toContain('this host name serves only')
    const twin = await post({ host: `localhost:${port}` }, '::1')
    expect(twin.status).toBe(403)
    expect(twin.body).toContain('this host name serves only')
    // The twin listener answers no other name, not even the daemon's own.
    expect((await post({ host: `127.0.0.1:${port}` }, '::1')).status).toBe(403)
    expect((await post({})).status).toBe(200)
  })

  it('shows and calls only the servers a --servers token names, prefixed or --unprefixed, in both eras', async () => {
    const scoped = await createToken(daemon, 'auth-scoped', ['--servers', 'alp*'])
    const solo = await createToken(daemon, 'auth-solo', ['--servers', 'alpha', '--unprefixed'])
    for (const mode of ['legacy', 'auto'] as const) {
      const prefixed = await sdkClient(daemon, scoped, mode)
      const names = (await prefixed.client.listTools()).tools.map((tool) => tool.name)
      expect(names).toContain('mcp_alpha_echo')
      expect(names.filter((name) => !name.startsWith('mcp_alpha_'))).toEqual([])
      const echoed = await prefixed.client.callTool({
        name: 'mcp_alpha_echo',
        arguments: { text: `scoped ${mode}` },
      })
      expect(echoed.content).toEqual([{ type: 'text', text: `scoped ${mode}` }])
      await expect(
        prefixed.client.callTool({ name: 'mcp_beta_echo', arguments: { text: 'x' } }),
      ).rejects.toThrow(/no tool named "mcp_beta_echo"; call tools\/list/)
      await prefixed.client.close()

      const bare = await sdkClient(daemon, solo, mode)
      const bareNames = (await bare.client.listTools()).tools.map((tool) => tool.name)
      expect(bareNames).toContain('echo')
      expect(bareNames.some((name) => name.startsWith('mcp_'))).toBe(false)
      const plain = await bare.client.callTool({
        name: 'echo',
        arguments: { text: `solo ${mode}` },
      })
      expect(plain.content).toEqual([{ type: 'text', text: `solo ${mode}` }])
      for (const name of ['mcp_beta_echo', 'mcp_alpha_echo']) {
        await expect(bare.client.callTool({ name, arguments: { text: 'x' } })).rejects.toThrow(
          `no tool named "${name}"`,
        )
      }
      await bare.client.close()
    }
    const alphaCalls = (await readJsonLines(alphaRecord)).filter((e) => e.method === 'tools/call')
    expect(alphaCalls).toHaveLength(4)
    // Beta was never called, under either name.
    const betaCalls = (await readJsonLines(betaRecord)).filter((e) => e.method === 'tools/call')
    expect(betaCalls).toEqual([])
  })

  it('creates, lists and revokes tokens through the CLI, printing a token once on stdout', async () => {
    const created = await daemon.cli([
      'gateway',
      'token',
      'create',
      'auth-cli',
      '--servers',
      'beta',
    ])
    expect(created.code).toBe(0)
    expect(created.stdout).toMatch(/^fgw_[A-Za-z0-9_-]{43}\n$/)
    expect(created.stderr).toContain('shown once')
    expect(created.stderr).not.toContain(created.stdout.trim())
    const token = created.stdout.trim()
    expect((await mcp(daemon, token, { body: INITIALIZE })).status).toBe(200)

    const listed = await daemon.cli(['gateway', 'token', 'list'])
    expect(listed.code).toBe(0)
    const line = listed.stdout.split('\n').find((l) => l.startsWith('auth-cli '))
    expect(line).toMatch(/servers beta {2}default session {2}created \S+ {2}last used \S+/)
    expect(listed.stdout).not.toContain(token)
    const json = await daemon.cli(['gateway', 'token', 'list', '--json'])
    const infos = JSON.parse(json.stdout) as Array<Record<string, unknown>>
    const info = infos.find((entry) => entry.name === 'auth-cli')
    expect(info).toMatchObject({ servers: ['beta'], unprefixed: false, session: null })
    expect(Date.parse(info?.createdAt as string)).toBeGreaterThan(0)
    expect(Date.parse(info?.lastUsedAt as string)).toBeGreaterThan(0)
    expect(json.stdout).not.toContain(token)
    expect(infos.some((entry) => 'hash' in entry || 'token' in entry)).toBe(false)

    const asJson = await daemon.cli(['gateway', 'token', 'create', 'auth-cli-json', '--json'])
    expect(asJson.code).toBe(0)
    expect(JSON.parse(asJson.stdout)).toMatchObject({
      token: expect.stringMatching(/^fgw_/),
      info: { name: 'auth-cli-json', servers: ['*'], lastUsedAt: null },
      url: `${daemon.info.url}mcp`,
    })

    const again = await daemon.cli(['gateway', 'token', 'create', 'auth-cli'])
    expect(again.code).not.toBe(0)
    expect(again.stdout).toBe('')
    expect(again.stderr).toContain('revoke it first')

    const revoked = await daemon.cli(['gateway', 'token', 'revoke', 'auth-cli'])
    expect(revoked.code).toBe(0)
    expect(revoked.stdout).toContain('Revoked the gateway token "auth-cli"')
    const after = await mcp(daemon, token, { body: INITIALIZE })
    expect(after.status).toBe(401)
    expect(errorOf(after).message).toMatch(/unknown or revoked gateway token/)
    const gone = await daemon.cli(['gateway', 'token', 'revoke', 'auth-cli'])
    expect(gone.code).not.toBe(0)
    expect(gone.stderr).toContain('no gateway token named "auth-cli"')
  })

  it('refuses --unprefixed unless the token names exactly one server without a glob', async () => {
    for (const servers of [[], ['--servers', 'al*'], ['--servers', 'alpha,beta']]) {
      const refused = await daemon.cli([
        'gateway',
        'token',
        'create',
        'auth-unprefixed',
        '--unprefixed',
        ...servers,
      ])
      expect(refused.code, servers.join(' ')).not.toBe(0)
      expect(refused.stdout).toBe('')
      expect(refused.stderr).toContain('--unprefixed needs a token limited to exactly one server')
    }
    const listed = JSON.parse((await daemon.cli(['gateway', 'token', 'list', '--json'])).stdout)
    expect(listed.some((entry: { name: string }) => entry.name === 'auth-unprefixed')).toBe(false)
  })

  it('ends a revoked token at once: its open legacy session closes and its next request gets 401', async () => {
    const token = await createToken(daemon, 'auth-revoked')
    const other = await createToken(daemon, 'auth-bystander')
    const id = await openLegacySession(daemon, token)
    const bystander = await openLegacySession(daemon, other)
    const stream = await fetch(new URL('/mcp', daemon.info.url), {
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'text/event-stream',
        ...sessionHeaders(id),
      },
    })
    expect(stream.status).toBe(200)
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader()
    const ended = (async () => {
      for (;;) {
        const { done } = await reader.read().catch(() => ({ done: true }))
        if (done) return true
      }
    })()

    expect((await daemon.cli(['gateway', 'token', 'revoke', 'auth-revoked'])).code).toBe(0)
    expect(await ended).toBe(true)
    const next = await mcp(daemon, token, {
      headers: sessionHeaders(id),
      body: { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    })
    expect(next.status).toBe(401)
    // Another client's session is untouched.
    const still = await mcp(daemon, other, {
      headers: sessionHeaders(bystander),
      body: { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    })
    expect(still.status).toBe(200)
  })

  it('keeps only hashes in a 0600 token file, and the token shows in no log, transcript, status or error body', async () => {
    const token = await createToken(daemon, 'auth-secret')
    const answers: string[] = []
    const id = await openLegacySession(daemon, token)
    for (const body of [
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'mcp_alpha_echo', arguments: { text: 'x' } },
      },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'nope', arguments: {} } },
      {
        jsonrpc: '2.0',
        id: 4,
        method: 'tools/call',
        params: { name: 'mcp_alpha_echo', arguments: { text: 1 } },
      },
    ]) {
      answers.push((await mcp(daemon, token, { headers: sessionHeaders(id), body })).text)
    }
    answers.push(
      (
        await mcp(daemon, token, {
          headers: modernHeaders('tools/call', 'mcp_alpha_echo'),
          body: modernBody('tools/call', { name: 'mcp_alpha_echo', arguments: {} }),
        })
      ).text,
    )
    answers.push((await mcp(daemon, token, { body: '{"broken' })).text)
    answers.push((await mcp(daemon, `${token}x`, { body: INITIALIZE })).text)
    const status = await (await daemon.api('/status')).text()
    await daemon.cli(['gateway', 'token', 'revoke', 'auth-secret'])
    answers.push((await mcp(daemon, token, { body: INITIALIZE })).text)

    const file = join(daemon.stateDir, 'gateway-tokens.json')
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    const hash = createHash('sha256').update(token).digest('hex')
    const other = await createToken(daemon, 'auth-secret-2')
    const stored = await readFile(file, 'utf8')
    expect(stored).toContain(createHash('sha256').update(other).digest('hex'))
    expect(stored).not.toContain(other)
    expect(stored).not.toContain(hash)
    // Every refusal was recorded; still, the token is nowhere in the state directory.
    await daemon.waitForEvent((e) => e.type === 'notice' && e.message.includes('"nope"'))
    for (const { path, text } of await everyFile(daemon.stateDir)) {
      expect(text.includes(token), path).toBe(false)
    }
    expect(status).not.toContain(token)
    for (const answer of answers) expect(answer).not.toContain(token)
  })
})

describe('a damaged token file', () => {
  afterAll(cleanup)

  it('grants nothing from a damaged gateway-tokens.json or entry, and logs it', async () => {
    const settings = { mcpServers: { alpha: fixture([]) } }
    const first = await startInProcess(settings)
    const kept = await createToken(first, 'auth-kept')
    const broken = await createToken(first, 'auth-broken')
    await first.stop()
    const file = join(first.stateDir, 'gateway-tokens.json')
    const stored = JSON.parse(await readFile(file, 'utf8')) as { tokens: Array<{ name: string }> }
    const damaged = stored.tokens.map((entry) =>
      entry.name === 'auth-broken' ? { ...entry, servers: 'all of them' } : entry,
    )
    await writeFile(file, JSON.stringify({ tokens: damaged }))

    const second = await startInProcess(settings, { stateDir: first.stateDir })
    expect((await mcp(second, kept, { body: INITIALIZE })).status).toBe(200)
    expect((await mcp(second, broken, { body: INITIALIZE })).status).toBe(401)
    const log = await waitFor(async () => {
      const text = await readFile(join(second.stateDir, 'daemon.log'), 'utf8')
      return text.includes('gateway.tokens_damaged') ? text : undefined
    })
    expect(log).toMatch(/gateway-tokens\.json: entry 1 is damaged and grants nothing/)
    await second.stop()

    await writeFile(file, '{"tokens": [')
    const third = await startInProcess(settings, { stateDir: first.stateDir })
    expect((await mcp(third, kept, { body: INITIALIZE })).status).toBe(401)
    const later = await readFile(join(third.stateDir, 'daemon.log'), 'utf8')
    expect(later).toMatch(/gateway-tokens\.json is damaged; no gateway token is accepted/)
  })
})
