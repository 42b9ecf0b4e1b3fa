// `ferry mcp` as a real process under real SDK stdio clients of both eras, relaying to the daemon's
// `/mcp`; and `ferry gateway config`, whose snippets must parse and launch a working bridge.

import { spawn } from 'node:child_process'
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { parse as parseToml } from 'smol-toml'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { cleanup, ferryBin, fixture, tempDir, waitFor, type Daemon } from './harness.js'
import { runCliInProcess } from './cli-in-process.js'
import { startInProcess } from './in-process.js'

const SETTINGS = { mcpServers: { fx: fixture([]) } }

const clients: Client[] = []
const stateDirsToStop: string[] = []

async function bridgeClient(
  stateDir: string,
  mode: 'legacy' | 'auto',
  extra: { args?: string[]; cwd?: string; command?: string } = {},
): Promise<Client> {
  const client = new Client(
    { name: `bridge-test-${mode}`, version: '1.0.0' },
    // The probe of `auto` runs on its own `ferry mcp`, which may have to start Ferry first.
    { versionNegotiation: { mode, probe: { timeoutMs: 30_000 } } },
  )
  const transport = new StdioClientTransport({
    command: extra.command ?? process.execPath,
    args: extra.args ?? [ferryBin, 'mcp', '--state-dir', stateDir],
    cwd: extra.cwd,
    env: process.env as Record<string, string>,
    stderr: 'pipe',
  })
  clients.push(client)
  await client.connect(transport, { timeout: 30_000 })
  return client
}

async function echo(client: Client, text: string): Promise<unknown> {
  const result = await client.callTool({ name: 'mcp_fx_echo', arguments: { text } })
  return result.content
}

async function tokenNames(daemon: { cli: Daemon['cli'] }): Promise<string[]> {
  const listed = await daemon.cli(['gateway', 'token', 'list', '--json'])
  return (JSON.parse(listed.stdout) as Array<{ name: string }>).map((token) => token.name)
}

interface Seen {
  method: string
  headers: IncomingHttpHeaders
  body: string
}

/** An HTTP proxy in front of the daemon that records each request, for what is only on the wire. */
async function recordingProxy(
  target: number,
): Promise<{ port: number; seen: Seen[]; server: Server }> {
  const seen: Seen[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      if (req.url === '/mcp')
        seen.push({ method: req.method ?? '', headers: req.headers, body: body.toString() })
      const upstream = request(
        {
          host: '127.0.0.1',
          port: target,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: `127.0.0.1:${target}` },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
        },
      )
      upstream.on('error', () => res.destroy())
      res.on('close', () => upstream.destroy())
      upstream.end(body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { port: (server.address() as AddressInfo).port, seen, server }
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})))
  await Promise.all(
    stateDirsToStop.splice(0).map((stateDir) => runCliInProcess(['stop', '--state-dir', stateDir])),
  )
})

describe('ferry mcp with a running daemon', () => {
  let daemon: Daemon

  beforeAll(async () => {
    daemon = await startInProcess(SETTINGS)
    await daemon.waitForStatus('fx', 'ready')
  })
  afterAll(cleanup)

  it('serves a legacy stdio client: it lists and calls, recorded as "stdio (gateway)", with one stored token reused', async () => {
    const client = await bridgeClient(daemon.stateDir, 'legacy')
    expect(client.getProtocolEra()).toBe('legacy')
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25')
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toContain('mcp_fx_echo')
    expect(await echo(client, 'via the bridge')).toEqual([{ type: 'text', text: 'via the bridge' }])
    const requested = await daemon.waitForEvent(
      (event) => event.type === 'call.requested' && event.arguments.text === 'via the bridge',
    )
    expect(requested.client).toMatchObject({ kind: 'mcp', label: 'stdio (gateway)' })

    const path = join(daemon.stateDir, 'gateway-client-tokens', 'stdio')
    expect((await stat(path)).mode & 0o777).toBe(0o600)
    const token = await readFile(path, 'utf8')
    await client.close()
    const again = await bridgeClient(daemon.stateDir, 'legacy')
    expect(await echo(again, 'again')).toEqual([{ type: 'text', text: 'again' }])
    expect(await readFile(path, 'utf8')).toBe(token)
    expect(await tokenNames(daemon)).toEqual(['stdio'])
  })

  it('serves a 2026-07-28 stdio client (auto): it lists and calls under its --client name', async () => {
    const client = await bridgeClient(daemon.stateDir, 'auto', {
      args: [ferryBin, 'mcp', '--client', 'sdk-auto', '--state-dir', daemon.stateDir],
    })
    expect(client.getProtocolEra()).toBe('modern')
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toContain('mcp_fx_echo')
    expect(await echo(client, 'modern hello')).toEqual([{ type: 'text', text: 'modern hello' }])
    const requested = await daemon.waitForEvent(
      (event) => event.type === 'call.requested' && event.arguments.text === 'modern hello',
    )
    expect(requested.client).toMatchObject({ kind: 'mcp', label: 'sdk-auto (gateway)' })
    // The era probe and the session each ran a `ferry mcp`; they share one token.
    expect((await tokenNames(daemon)).filter((name) => name === 'sdk-auto')).toHaveLength(1)
  })

  it('holds a revocation: requests get a JSON-RPC error saying how to let the client in again, and no new token is made', async () => {
    const args = [ferryBin, 'mcp', '--client', 'revoked-one', '--state-dir', daemon.stateDir]
    const client = await bridgeClient(daemon.stateDir, 'legacy', { args })
    expect(await echo(client, 'before')).toEqual([{ type: 'text', text: 'before' }])
    expect((await daemon.cli(['gateway', 'token', 'revoke', 'revoked-one'])).code).toBe(0)
    const path = join(daemon.stateDir, 'gateway-client-tokens', 'revoked-one')
    await expect(client.listTools()).rejects.toThrow(
      new RegExp(`refused the gateway token "revoked-one".*delete ${path}`),
    )
    // A new bridge of that name is refused too, from its first request on.
    await expect(bridgeClient(daemon.stateDir, 'legacy', { args })).rejects.toThrow(
      /refused the gateway token "revoked-one"/,
    )
    expect(await tokenNames(daemon)).not.toContain('revoked-one')
  })

  it.each(['legacy', 'auto'] as const)(
    'relays the progress of a %s client and its cancel, which ends the call cancelled',
    async (mode) => {
      const name = `cancel-${mode}`
      const client = await bridgeClient(daemon.stateDir, mode, {
        args: [ferryBin, 'mcp', '--client', name, '--state-dir', daemon.stateDir],
      })
      const progress: number[] = []
      const controller = new AbortController()
      const call = client.callTool(
        { name: 'mcp_fx_slow', arguments: { steps: 1000, delayMs: 20 } },
        {
          signal: controller.signal,
          onprogress: ({ progress: step }) => {
            progress.push(step)
            if (progress.length === 2) controller.abort()
          },
        },
      )
      await expect(call).rejects.toThrow()
      const requested = await daemon.waitForEvent(
        (event) => event.type === 'call.requested' && event.client?.label === `${name} (gateway)`,
      )
      // Without the cancel the call would run for 20 s and end with a result.
      const ended = await daemon.waitForEvent(
        (event) =>
          (event.type === 'call.cancelled' || event.type === 'call.result') &&
          event.callId === (requested as { callId: string }).callId,
      )
      expect(ended.type).toBe('call.cancelled')
      expect(progress).toEqual([1, 2])
    },
  )

  it('prints a snippet for each host that parses, names /mcp or ferry mcp, and holds no token', async () => {
    const url = new URL('mcp', daemon.info.url).href
    const config = async (...args: string[]) => {
      const result = await daemon.cli(['gateway', 'config', ...args])
      expect(result.code, result.stderr).toBe(0)
      expect(result.stdout).not.toContain('fgw_')
      expect(result.stdout).not.toContain(daemon.info.token)
      return result
    }
    const bridge = (host: string) => ({
      command: process.execPath,
      args: [ferryBin, 'mcp', '--client', host, '--state-dir', daemon.stateDir],
    })

    const code = await config('claude-code')
    expect(JSON.parse(code.stdout)).toEqual({
      mcpServers: {
        ferry: { type: 'http', url, headers: { Authorization: 'Bearer ${FERRY_MCP_TOKEN}' } },
      },
    })
    expect(code.stderr).toContain('ferry gateway token create claude-code')
    expect(code.stderr).toContain(`claude mcp add --transport http ferry ${url}`)
    expect(JSON.parse((await config('cursor')).stdout)).toEqual({
      mcpServers: { ferry: { url, headers: { Authorization: 'Bearer ${env:FERRY_MCP_TOKEN}' } } },
    })
    const vscode = JSON.parse((await config('vscode')).stdout) as {
      inputs: Array<{ id: string; password: boolean }>
      servers: unknown
    }
    expect(vscode.inputs).toMatchObject([{ id: 'ferry-token', password: true }])
    expect(vscode.servers).toEqual({
      ferry: { type: 'http', url, headers: { Authorization: 'Bearer ${input:ferry-token}' } },
    })
    expect(parseToml((await config('codex')).stdout)).toEqual({
      mcp_servers: { ferry: { url, bearer_token_env_var: 'FERRY_MCP_TOKEN' } },
    })

    expect(JSON.parse((await config('claude-desktop')).stdout)).toEqual({
      mcpServers: { ferry: bridge('claude-desktop') },
    })
    expect(JSON.parse((await config('claude-code', '--stdio')).stdout)).toEqual({
      mcpServers: { ferry: { type: 'stdio', ...bridge('claude-code') } },
    })
    expect(JSON.parse((await config('cursor', '--stdio')).stdout)).toEqual({
      mcpServers: { ferry: bridge('cursor') },
    })
    expect(JSON.parse((await config('vscode', '--stdio')).stdout)).toEqual({
      servers: { ferry: { type: 'stdio', ...bridge('vscode') } },
    })
    expect(parseToml((await config('codex', '--stdio')).stdout)).toEqual({
      mcp_servers: { ferry: bridge('codex') },
    })

    const unknown = await daemon.cli(['gateway', 'config', 'notepad'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('claude-desktop, claude-code, cursor, vscode, codex')
  })

  it('launches a working bridge from the Claude Desktop snippet, as Claude Desktop would', async () => {
    const snippet = JSON.parse(
      (await daemon.cli(['gateway', 'config', 'claude-desktop'])).stdout,
    ) as {
      mcpServers: { ferry: { command: string; args: string[] } }
    }
    const { command, args } = snippet.mcpServers.ferry
    const client = await bridgeClient(daemon.stateDir, 'legacy', {
      command,
      args,
      cwd: await tempDir(),
    })
    expect(await echo(client, 'from the desktop')).toEqual([
      { type: 'text', text: 'from the desktop' },
    ])
    const requested = await daemon.waitForEvent(
      (event) => event.type === 'call.requested' && event.arguments.text === 'from the desktop',
    )
    expect(requested.client).toMatchObject({ label: 'claude-desktop (gateway)' })
  })
})

describe('ferry mcp without a running daemon', () => {
  afterAll(cleanup)

  async function freshSetup() {
    const stateDir = await tempDir('ferry-state-')
    const settings = join(await tempDir('ferry-config-'), 'settings.json')
    await writeFile(settings, JSON.stringify(SETTINGS))
    stateDirsToStop.push(stateDir)
    return { stateDir, settings, cwd: await tempDir() }
  }

  it('starts Ferry for a 2026-07-28 client (auto), which then lists and calls; ferry status shows it', async () => {
    const { stateDir, settings, cwd } = await freshSetup()
    const client = await bridgeClient(stateDir, 'auto', {
      args: [ferryBin, 'mcp', '--state-dir', stateDir, '--config', settings],
      cwd,
    })
    expect(client.getProtocolEra()).toBe('modern')
    const status = await runCliInProcess(['status', '--state-dir', stateDir])
    expect(status.stdout).toContain('Ferry')
    expect(status.code).toBe(0)
    // The daemon connects its servers in the background: the bridge may see them arrive.
    await waitFor(
      async () => (await client.listTools()).tools.some((tool) => tool.name === 'mcp_fx_echo'),
      15_000,
      'the fixture tools',
    )
    expect(await echo(client, 'first start')).toEqual([{ type: 'text', text: 'first start' }])
  })

  it('writes nothing but JSON-RPC to stdout while it starts Ferry for a legacy client, and exits 0 when stdin closes', async () => {
    const { stateDir, settings, cwd } = await freshSetup()
    const child = spawn(
      process.execPath,
      [ferryBin, 'mcp', '--state-dir', stateDir, '--config', settings],
      { cwd, stdio: ['pipe', 'pipe', 'pipe'] },
    )
    const stdout: Buffer[] = []
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    const lines = () =>
      Buffer.concat(stdout)
        .toString()
        .split('\n')
        .filter((line) => line !== '')
    const answer = (id: number) =>
      waitFor(
        () =>
          lines()
            .map((line) => {
              try {
                return JSON.parse(line) as { id?: number; result?: Record<string, unknown> }
              } catch {
                return undefined
              }
            })
            .find((message) => message?.id === id),
        30_000,
        `the answer to request ${id}`,
      )
    child.stdin.write(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      })}\n`,
    )
    const initialized = await answer(1)
    expect(initialized.result?.protocolVersion).toBe('2025-11-25')
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`,
    )
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`)
    expect((await answer(2)).result).toHaveProperty('tools')
    child.stdin.end()
    expect(await exited).toBe(0)

    for (const line of lines()) {
      expect(() => JSON.parse(line) as unknown, line).not.toThrow()
      expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' })
    }
    const runtime = JSON.parse(await readFile(join(stateDir, 'daemon.json'), 'utf8')) as {
      token: string
      pid: number
    }
    expect(stderr).toContain(`started Ferry`)
    expect(stderr).toContain(`(pid ${runtime.pid})`)
    // The admin token (which answers confirmations) never reaches a host's log of stderr.
    expect(stderr).not.toContain(runtime.token)
    expect(Buffer.concat(stdout).toString()).not.toContain(runtime.token)
    expect((await runCliInProcess(['status', '--state-dir', stateDir])).code).toBe(0)
  })

  it('sends MCP-Protocol-Version and the session id on every request after a legacy initialize, and DELETEs the session when stdin closes', async () => {
    const daemon = await startInProcess(SETTINGS)
    await daemon.waitForStatus('fx', 'ready')
    const proxy = await recordingProxy(daemon.info.port)
    try {
      // The bridge finds the daemon through daemon.json: pointed at the proxy, it talks through it.
      const runtime = join(daemon.stateDir, 'daemon.json')
      const info = JSON.parse(await readFile(runtime, 'utf8')) as Record<string, unknown>
      await writeFile(
        runtime,
        JSON.stringify({ ...info, port: proxy.port, url: `http://127.0.0.1:${proxy.port}/` }),
      )
      const client = await bridgeClient(daemon.stateDir, 'legacy')
      expect(await echo(client, 'on the wire')).toEqual([{ type: 'text', text: 'on the wire' }])
      await client.close()
      const deleted = await waitFor(
        () => proxy.seen.find((request) => request.method === 'DELETE'),
        15_000,
        'the DELETE of the session',
      )
      const [handshake, ...later] = proxy.seen
      expect(handshake?.body).toContain('"method":"initialize"')
      expect(later.length).toBeGreaterThanOrEqual(4)
      for (const seen of later) {
        expect(seen.headers['mcp-protocol-version'], `${seen.method} ${seen.body}`).toBe(
          '2025-11-25',
        )
        expect(seen.headers['mcp-session-id']).toBeDefined()
      }
      expect(deleted.headers['mcp-session-id']).toBe(later[0]?.headers['mcp-session-id'])
    } finally {
      proxy.server.closeAllConnections()
      proxy.server.close()
    }
  })

  it('answers with a JSON-RPC error while Ferry is stopped, and reaches it again once it runs, in a new session', async () => {
    const first = await startInProcess(SETTINGS)
    await first.waitForStatus('fx', 'ready')
    const client = await bridgeClient(first.stateDir, 'legacy')
    expect(await echo(client, 'one')).toEqual([{ type: 'text', text: 'one' }])
    // A call cut off by the daemon's end is answered too.
    const cut = client.callTool({ name: 'mcp_fx_slow', arguments: { steps: 1, delayMs: 60_000 } })
    cut.catch(() => {})
    await first.waitForEvent(
      (event) => event.type === 'call.requested' && event.tool === 'mcp_fx_slow',
    )
    await first.stop()
    const answered = await cut.then(
      (result) => result.isError === true,
      () => true,
    )
    expect(answered).toBe(true)
    // A bridge that stayed silent would fail here with a timeout instead.
    await expect(client.listTools(undefined, { timeout: 10_000 })).rejects.toThrow(
      /Ferry is not running.*ferry start/,
    )
    const second = await startInProcess(SETTINGS, { stateDir: first.stateDir })
    await second.waitForStatus('fx', 'ready')
    expect(await echo(client, 'two')).toEqual([{ type: 'text', text: 'two' }])
    const requested = await second.waitForEvent(
      (event) => event.type === 'call.requested' && event.arguments.text === 'two',
    )
    expect(requested.client).toMatchObject({ label: 'stdio (gateway)' })
  })
})
