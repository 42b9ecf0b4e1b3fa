import { readFile, readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startOAuthServer, type OAuthServer } from '../../e2e/fixtures/oauth-server.js'
import { standInBrowser } from '../../e2e/fixtures/stand-in-browser.js'
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { createToken } from './gateway-wire.js'
import { cleanup, ferryBin, tempDir } from './harness.js'
import { startInProcess, type InProcessDaemon } from './in-process.js'

// The person's path through an OAuth sign-in, against a real OAuth-protected MCP server (the SDK's
// authorization server helpers, in this process): `needs_login`, `ferry login` with a browser that
// follows the authorization page's redirects, `ready`, calls, an expired token refreshed without
// asking, a step-up, a refused refresh, `ferry logout`; and what the callback refuses.

let server: OAuthServer | undefined
afterEach(async () => {
  await cleanup()
  await server?.close()
  server = undefined
})

async function signedInDaemon(): Promise<{ daemon: InProcessDaemon; browser: string }> {
  server = await startOAuthServer()
  const daemon = await startInProcess({
    mcpServers: { notes: { httpUrl: server.mcpUrl, trust: true } },
  })
  return { daemon, browser: await standInBrowser(await tempDir('ferry-browser-')) }
}

async function call(
  daemon: InProcessDaemon,
  tool: string,
  args: Record<string, unknown> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await daemon.api('/call', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tool, arguments: args, yes: true }),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

function textOf(body: Record<string, unknown>): string {
  const result = body.result as { content: { text: string }[] }
  return result.content.map((block) => block.text).join('')
}

describe('OAuth sign-in to a remote server', () => {
  it('waits for a sign-in, signs in through the browser, refreshes an expired token unasked, and signs out', async () => {
    const { daemon, browser } = await signedInDaemon()
    const waiting = await daemon.waitForStatus('notes', 'needs_login')
    expect(waiting.error).toBe('the server asks for a sign-in: run `ferry login notes` to sign in')
    expect((await daemon.cli(['servers'])).stdout).toMatch(/notes\s+needs_login/)

    // Calls fail at once, naming the command.
    const early = await call(daemon, 'mcp_notes_whoami')
    expect(early.status).toBe(409)
    expect(early.body.error).toMatchObject({
      code: 'needs_login',
      message: expect.stringContaining('run `ferry login notes`'),
    })

    const login = await daemon.cli(['login', 'notes'], { env: { BROWSER: browser } })
    expect(login.stderr).toContain('Opened the sign-in page for notes in your browser')
    expect(login.stdout).toBe('Signed in to notes: ready\n')
    expect(login.code).toBe(0)
    const [authorization] = server?.authorizations ?? []
    expect(authorization).toMatchObject({
      codeChallengeMethod: 'S256',
      resource: server?.mcpUrl,
      scope: 'notes:read',
    })

    const whoami = await call(daemon, 'mcp_notes_whoami')
    expect(whoami.status).toBe(200)
    expect(textOf(whoami.body)).toContain('notes:read')

    // An expired access token is refreshed without asking anyone.
    server?.expireAccessTokens()
    const after = await call(daemon, 'mcp_notes_whoami')
    expect(after.status).toBe(200)
    expect(server?.tokenRequests).toEqual(['authorization_code', 'refresh_token'])

    // The transcript shows the wait and the sign-in.
    const statuses = (await daemon.events())
      .filter((event) => event.type === 'server.status' && event.server === 'notes')
      .map((event) => (event as { status: string }).status)
    expect(statuses).toContain('needs_login')
    expect(statuses.at(-1)).toBe('ready')

    // No token in the log, the transcript, the status or `--json` output; the file is private.
    const tokens = (server?.bearerSeen() ?? []).map((header) => header.replace(/^Bearer /i, ''))
    expect(tokens.length).toBeGreaterThan(1)
    const oauthDir = join(daemon.stateDir, 'oauth')
    const [file] = await readdir(oauthDir)
    expect(file).toBe('notes.json')
    expect((await stat(join(oauthDir, 'notes.json'))).mode & 0o777).toBe(0o600)
    const sessions = join(daemon.stateDir, 'sessions')
    const seen = [
      await readFile(join(daemon.stateDir, 'daemon.log'), 'utf8'),
      JSON.stringify(await daemon.events()),
      (await daemon.cli(['servers', '--json'])).stdout,
      ...(await Promise.all(
        (await readdir(sessions, { recursive: true }))
          .filter((name) => name.endsWith('.jsonl'))
          .map((name) => readFile(join(sessions, name), 'utf8')),
      )),
    ].join('\n')
    for (const token of tokens) expect(seen).not.toContain(token)

    const logout = await daemon.cli(['logout', 'notes'])
    expect(logout.stdout).toBe('notes: signed out; the tokens were revoked and forgotten\n')
    expect(server?.revocations.length).toBeGreaterThan(0)
    await daemon.waitForStatus('notes', 'needs_login')
    const refused = await call(daemon, 'mcp_notes_whoami')
    expect(refused.body.error).toMatchObject({ code: 'needs_login' })
  })

  it('asks for the sign-in again when the authorization server refuses the refresh', async () => {
    const { daemon, browser } = await signedInDaemon()
    await daemon.waitForStatus('notes', 'needs_login')
    expect((await daemon.cli(['login', 'notes'], { env: { BROWSER: browser } })).code).toBe(0)
    server?.refuseRefresh(true)
    server?.expireAccessTokens()
    const refused = await call(daemon, 'mcp_notes_whoami')
    expect(refused.status).toBe(409)
    expect(refused.body.error).toMatchObject({
      code: 'needs_login',
      message: expect.stringContaining('run `ferry login notes`'),
    })
    expect((await daemon.servers()).find((s) => s.name === 'notes')?.status).toBe('needs_login')
    server?.refuseRefresh(false)
    expect((await daemon.cli(['login', 'notes'], { env: { BROWSER: browser } })).code).toBe(0)
    expect((await call(daemon, 'mcp_notes_whoami')).status).toBe(200)
  })

  it('steps up: a call refused for scope waits for a sign-in that asks for the granted and the needed scopes', async () => {
    const { daemon, browser } = await signedInDaemon()
    await daemon.waitForStatus('notes', 'needs_login')
    expect((await daemon.cli(['login', 'notes'], { env: { BROWSER: browser } })).code).toBe(0)
    const refused = await call(daemon, 'mcp_notes_write_note', { text: 'hello' })
    expect(refused.status).toBe(409)
    expect(refused.body.error).toMatchObject({
      code: 'needs_login',
      message: expect.stringContaining('scope "notes:read notes:write"'),
    })
    const again = await daemon.cli(['login', 'notes'], { env: { BROWSER: browser } })
    expect(again.code).toBe(0)
    expect(server?.authorizations.at(-1)?.scope?.split(' ').sort()).toEqual([
      'notes:read',
      'notes:write',
    ])
    const written = await call(daemon, 'mcp_notes_write_note', { text: 'hello' })
    expect(written.status).toBe(200)
  })

  it('takes a callback only for a pending state, once, without a token; agents cannot start a sign-in', async () => {
    const { daemon } = await signedInDaemon()
    await daemon.waitForStatus('notes', 'needs_login')
    const callback = (query: string) => fetch(new URL(`oauth/callback?${query}`, daemon.info.url))

    const unknown = await callback('code=abc&state=not-a-pending-state')
    expect(unknown.status).toBe(400)
    expect(await unknown.text()).toContain('This sign-in is not waiting here')

    // `ferry login --no-browser` prints the page; the person opens it wherever they like.
    const cli = spawn(process.execPath, [
      ferryBin,
      '--state-dir',
      daemon.stateDir,
      'login',
      'notes',
      '--no-browser',
    ])
    const exited = new Promise<number | null>((resolve) => cli.once('exit', resolve))
    const lines = createInterface({ input: cli.stdout })
    const [page] = (await lines[Symbol.asyncIterator]().next()).value.split('\n') as string[]
    const authorize = await fetch(page ?? '', { redirect: 'manual' })
    const back = authorize.headers.get('location') ?? ''
    expect(new URL(back).pathname).toBe('/oauth/callback')
    const first = await fetch(back)
    expect(first.status).toBe(200)
    expect(first.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(await first.text()).toContain('Signed in to notes. It is ready')
    expect(await exited).toBe(0)
    // The same redirect again is refused, and changes nothing.
    const replay = await fetch(back)
    expect(replay.status).toBe(400)
    expect((await daemon.servers()).find((s) => s.name === 'notes')?.status).toBe('ready')

    // A gateway token opens /mcp only: an agent can neither start a sign-in nor sign out.
    const token = await createToken(daemon, 'agent')
    for (const path of ['/servers/notes/login', '/servers/notes/logout']) {
      const refused = await fetch(new URL(`api${path}`, daemon.info.url), {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      })
      expect(refused.status).toBe(401)
    }
    expect(server?.authorizations).toHaveLength(1)
  })
})
