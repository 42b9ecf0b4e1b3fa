// Proves the fixture MCP servers behave as the daemon's end-to-end tests expect: era, pagination,
// progress, recording, raw legacy quirks, HTTP/SSE header capture and runtime tool-list changes.
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import {
  Client,
  SSEClientTransport,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client'
import type { DiscoverResult } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { APP_HTML_MARKER } from '../fixtures/app-html.js'
import { moduleAsScript } from '../fixtures/ext-apps-inline.js'
import {
  appHostServerPath,
  httpServerPath,
  rawLegacyServerPath,
  sseServerPath,
  stdioServerPath,
} from '../fixtures/paths.js'

type Line = Record<string, unknown>

let dir: string
const clients: Client[] = []
const children: ChildProcess[] = []
const strayPids: number[] = []

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ferry-fixtures-'))
})

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})))
  await Promise.all(children.splice(0).map(stopChild))
  for (const pid of strayPids.splice(0)) {
    if (isAlive(pid)) process.kill(pid, 'SIGKILL')
  }
})

afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGKILL')
  })
}

function readLines(file: string): Line[] {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    return []
  }
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Line)
}

function stdioClient(
  mode: 'auto' | 'legacy',
  command: string,
  args: string[],
): { client: Client; transport: StdioClientTransport } {
  const client = new Client(
    { name: 'fixtures-test', version: '1.0.0' },
    { versionNegotiation: { mode, probe: { timeoutMs: 5000 } } },
  )
  clients.push(client)
  const transport = new StdioClientTransport({ command, args })
  return { client, transport }
}

/** Spawns an HTTP fixture server and resolves with the URL from its first stdout line. */
async function startHttpFixture(
  path: string,
  args: string[] = [],
): Promise<ChildProcess & { url: string }> {
  const child = spawn(process.execPath, [path, ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
  children.push(child)
  const firstLine = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve)
    child.once('exit', (code) => reject(new Error(`${path} exited with ${code}`)))
  })
  const { url } = JSON.parse(firstLine) as { url: string }
  return Object.assign(child, { url })
}

async function stopWithSigterm(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  return exited
}

/** Polls `check`; the bound is only for a clear message before the test's own timeout. */
async function waitFor(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('stdio-server', () => {
  it('serves the modern era with pagination, caching, progress and recording', async () => {
    const record = join(dir, 'modern-record.jsonl')
    const spawnLog = join(dir, 'modern-spawns.jsonl')
    const { client, transport } = stdioClient('auto', process.execPath, [
      stdioServerPath,
      ...['--era', 'modern', '--pages', '3', '--extra-tools', '6', '--tools-ttl', '60000'],
      ...['--record', record, '--spawn-log', spawnLog],
    ])
    await client.connect(transport)
    expect(client.getProtocolEra()).toBe('modern')

    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toEqual([
      ...['echo', 'slow', 'crash', 'env', 'rich', 'fail'],
      ...Array.from({ length: 6 }, (_, i) => `extra_${i}`),
    ])
    expect(tools[0]?.annotations?.readOnlyHint).toBe(true)
    await client.listTools()
    const lists = readLines(record).filter((line) => line.method === 'tools/list')
    expect(lists).toHaveLength(3)

    const progress: { progress: number; total?: number; message?: string }[] = []
    const slow = await client.callTool(
      { name: 'slow', arguments: { steps: 3, delayMs: 200 } },
      { onprogress: (event) => progress.push(event) },
    )
    expect(slow.content).toEqual([{ type: 'text', text: 'done' }])
    // The client SDK dispatches notifications a microtask after responses, so the last progress
    // can arrive "after" the result and be dropped as an unknown token: expect a prefix. Steps
    // 200 ms apart are read one by one even on a loaded machine.
    const expected = [1, 2, 3].map((step) => [step, 3, `step ${step}/3`])
    expect(progress.map((event) => [event.progress, event.total, event.message])).toEqual(
      expected.slice(0, progress.length),
    )
    expect(progress.length).toBeGreaterThanOrEqual(2)

    const call = readLines(record).find((line) => line.method === 'tools/call')
    expect(call).toMatchObject({
      name: 'slow',
      envelope: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' },
    })

    const failed = await client.callTool({ name: 'fail', arguments: {} })
    expect(failed.isError).toBe(true)
    const rich = await client.callTool({ name: 'rich', arguments: {} })
    expect(rich.content.map((block) => block.type)).toEqual(
      expect.arrayContaining(['text', 'image', 'audio', 'resource_link', 'resource']),
    )
    expect(rich.structuredContent).toEqual({ ok: true })

    const spawns = readLines(spawnLog)
    expect(spawns).toHaveLength(2)
    await client.close()
    for (const { pid } of spawns) await waitFor(() => !isAlive(pid as number))
  })

  it('falls back to legacy on --era legacy and records without an envelope', async () => {
    const record = join(dir, 'legacy-record.jsonl')
    const { client, transport } = stdioClient('auto', process.execPath, [
      stdioServerPath,
      ...['--era', 'legacy', '--record', record],
    ])
    await client.connect(transport)
    expect(client.getProtocolEra()).toBe('legacy')
    const echo = await client.callTool({ name: 'echo', arguments: { text: 'hi' } })
    expect(echo.content).toEqual([{ type: 'text', text: 'hi' }])
    expect(readLines(record)).toEqual([
      { method: 'tools/call', name: 'echo', envelope: null, pid: transport.pid },
    ])
  })

  it('leaves its grandchild running after the server exits', async () => {
    const pidfile = join(dir, 'grandchild.pid')
    const { client, transport } = stdioClient('legacy', process.execPath, [
      stdioServerPath,
      ...['--era', 'legacy', '--grandchild-pidfile', pidfile],
    ])
    await client.connect(transport)
    const serverPid = transport.pid as number
    const pids = readFileSync(pidfile, 'utf8').trim().split('\n').map(Number)
    strayPids.push(...pids)
    expect(pids).toHaveLength(1)
    const grandchild = pids[0] as number
    await client.close()
    await waitFor(() => !isAlive(serverPid))
    expect(isAlive(grandchild)).toBe(true)
  })
})

describe('stdio-server --apps', () => {
  it('adds the App tools and resources and declares the extension unless told not to', async () => {
    const { client, transport } = stdioClient('legacy', process.execPath, [
      stdioServerPath,
      '--apps',
    ])
    await client.connect(transport)
    expect(client.getServerCapabilities()?.extensions).toEqual({
      'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] },
    })
    const { tools } = await client.listTools()
    expect(tools).toHaveLength(6 + 14)
    expect(tools.find((tool) => tool.name === 'app_only')?._meta).toEqual({
      ui: { resourceUri: 'ui://fixture/show', visibility: ['app'] },
    })
    const show = await client.readResource({ uri: 'ui://fixture/show' })
    expect(show.contents).toHaveLength(1)
    expect(show.contents[0]).toMatchObject({ mimeType: 'text/html;profile=mcp-app' })
    expect((show.contents[0] as { text: string }).text).toContain(APP_HTML_MARKER)

    const plain = stdioClient('legacy', process.execPath, [
      stdioServerPath,
      '--apps',
      '--no-ui-extension',
    ])
    await plain.client.connect(plain.transport)
    expect(plain.client.getServerCapabilities()?.extensions).toBeUndefined()
    expect((await plain.client.listTools()).tools).toHaveLength(6 + 14)
  })
})

describe('app-host-server', () => {
  it('serves the real ext-apps App inlined, six tools and two resources, without declaring the extension', async () => {
    const { client, transport } = stdioClient('legacy', process.execPath, [appHostServerPath])
    await client.connect(transport)
    expect(client.getServerCapabilities()?.extensions).toBeUndefined()
    const { tools } = await client.listTools()
    const meta = Object.fromEntries(tools.map((tool) => [tool.name, tool._meta]))
    expect(meta).toEqual({
      host_app: { ui: { resourceUri: 'ui://host/app' }, 'ui/resourceUri': 'ui://host/app' },
      flat_app: { 'ui/resourceUri': 'ui://host/app' },
      bump: { ui: { visibility: ['app'] } },
      peek: { ui: { visibility: ['app'] } },
      model_only: { ui: { visibility: ['model'] } },
      broken_app: {
        ui: { resourceUri: 'ui://host/missing' },
        'ui/resourceUri': 'ui://host/missing',
      },
    })
    const app = await client.readResource({ uri: 'ui://host/app' })
    expect(app.contents).toHaveLength(1)
    expect(app.contents[0]).toMatchObject({ mimeType: 'text/html;profile=mcp-app' })
    const html = (app.contents[0] as { text: string }).text
    // The bundle's trailing export became the global the App's module script reads.
    expect(html).toContain('globalThis.ExtApps=Object.freeze({')
    expect(html).not.toMatch(/export\s*\{/)
    expect(Buffer.byteLength(html)).toBeLessThan(1024 * 1024)
    const notes = await client.readResource({ uri: 'ui://host/notes' })
    expect(notes.contents[0]).toMatchObject({
      mimeType: 'text/plain',
      text: 'notes from the host server',
    })
    await expect(client.readResource({ uri: 'ui://host/missing' })).rejects.toThrow()

    const call = (name: string, args: Record<string, unknown> = {}) =>
      client.callTool({ name, arguments: args })
    expect((await call('host_app', { label: 'one' })).content).toEqual([
      { type: 'text', text: 'host app ready: one' },
    ])
    expect((await call('flat_app')).content).toEqual([
      { type: 'text', text: 'host app ready: none' },
    ])
    expect(await call('bump')).toMatchObject({ structuredContent: { count: 1 } })
    expect((await call('bump')).content).toEqual([{ type: 'text', text: 'bumped 2' }])
    expect((await call('peek')).content).toEqual([{ type: 'text', text: 'peek 2' }])
    expect((await call('model_only')).content).toEqual([{ type: 'text', text: 'model only' }])
    expect((await call('broken_app')).content).toEqual([
      { type: 'text', text: 'broken app result' },
    ])
  })
})

describe('ext-apps-inline', () => {
  it('refuses a bundle of any other shape, saying what is wrong', () => {
    const good = 'var a=1;class q{};export{a as x,q as App};'
    expect(moduleAsScript(good, 'good.js')).toContain(
      'globalThis.ExtApps=Object.freeze({x:a,App:q})',
    )
    const cases: [string, RegExp][] = [
      ['var a=1;', /does not end in one export\{…\} statement/],
      ['var a=1;export{a as x};', /does not export App/],
      ['import b from "b";var a=1;export{a as App};', /is not a self-contained module/],
      ['var a=await 1;export{a as App};', /is not a self-contained module/],
      ['var a="</script>";export{a as App};', /contains <\/script/],
      ['var a=1;export{a as default as App};', /unexpected export entry/],
    ]
    for (const [source, error] of cases) {
      expect(() => moduleAsScript(source, 'bad.js'), source).toThrow(error)
    }
  })
})

describe('raw-legacy-server', () => {
  it('answers raw tools/list with undeclared capabilities', async () => {
    const { client, transport } = stdioClient('auto', process.execPath, [
      rawLegacyServerPath,
      ...['--undeclared', '--pages', '2', '--extra-tools', '2'],
    ])
    await client.connect(transport)
    expect(client.getProtocolEra()).toBe('legacy')
    expect(client.getServerCapabilities()).toEqual({})
    const page1 = await client.request({ method: 'tools/list', params: {} })
    expect(page1.tools.map((tool) => tool.name)).toEqual(['echo'])
    expect(page1.nextCursor).toBe('page-1')
    const page2 = await client.request({ method: 'tools/list', params: { cursor: 'page-1' } })
    expect(page2.tools.map((tool) => tool.name)).toEqual(['extra_0', 'extra_1'])
    const echo = await client.callTool({ name: 'echo', arguments: { text: 'raw' } })
    expect(echo.content).toEqual([{ type: 'text', text: 'raw' }])
  })

  it('stays silent on unknown methods with --silent-unknown', async () => {
    const child = spawn(process.execPath, [rawLegacyServerPath, '--silent-unknown'], {
      stdio: ['pipe', 'pipe', 'inherit'],
    })
    children.push(child)
    const replies: Line[] = []
    createInterface({ input: child.stdout }).on('line', (line) => replies.push(JSON.parse(line)))
    const send = (message: Line): boolean =>
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`)
    send({ id: 1, method: 'server/discover', params: {} })
    send({ id: 2, method: 'ping' })
    // The server answers lines in order, so an answer to 1 would come before the answer to 2.
    await waitFor(() => replies.some((reply) => reply.id === 2))
    expect(replies).toEqual([{ jsonrpc: '2.0', id: 2, result: {} }])
  })
})

describe('http-server', () => {
  it('serves a legacy session and captures POST headers', async () => {
    const child = await startHttpFixture(httpServerPath)
    const { url } = child
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/)

    const client = new Client(
      { name: 'fixtures-test', version: '1.0.0' },
      { versionNegotiation: { mode: 'legacy' } },
    )
    clients.push(client)
    await client.connect(new StreamableHTTPClientTransport(new URL(url)))
    const echo = await client.callTool({ name: 'echo', arguments: { text: 'over http' } })
    expect(echo.content).toEqual([{ type: 'text', text: 'over http' }])

    const captured = (await (await fetch(new URL('/captured', url))).json()) as Line[]
    expect(captured[0]).toMatchObject({ methods: ['initialize'], 'mcp-session-id': null })
    const call = captured.find((entry) => (entry.methods as string[]).includes('tools/call'))
    expect(call).toMatchObject({
      'mcp-protocol-version': '2025-11-25',
      'mcp-session-id': expect.any(String),
      names: ['echo'],
    })
    await client.close()
    expect(await stopWithSigterm(child)).toBe(0)
  })
})

describe('sse-server', () => {
  it('serves the deprecated HTTP+SSE transport and sees configured headers on GET and POST', async () => {
    const child = await startHttpFixture(sseServerPath)
    const { url } = child
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sse$/)
    const client = new Client(
      { name: 'fixtures-test', version: '1.0.0' },
      { versionNegotiation: { mode: 'legacy' } },
    )
    clients.push(client)
    const headers = { 'x-test': 'yes', authorization: 'Bearer sse-token' }
    await client.connect(new SSEClientTransport(new URL(url), { requestInit: { headers } }))
    expect(client.getProtocolEra()).toBe('legacy')

    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toEqual(['echo', 'slow'])
    expect(tools[0]?.annotations?.readOnlyHint).toBe(true)
    const echo = await client.callTool({ name: 'echo', arguments: { text: 'over sse' } })
    expect(echo.content).toEqual([{ type: 'text', text: 'over sse' }])

    const progress: number[] = []
    const slow = await client.callTool(
      { name: 'slow', arguments: { steps: 3, delayMs: 200 } },
      { onprogress: (event) => progress.push(event.progress) },
    )
    expect(slow.content).toEqual([{ type: 'text', text: 'done' }])
    // Same client race as on stdio; here the last progress and the result usually share one read.
    expect([1, 2, 3].slice(0, progress.length)).toEqual(progress)
    expect(progress.length).toBeGreaterThanOrEqual(2)

    const captured = (await (await fetch(new URL('/captured', url))).json()) as Line[]
    expect(captured[0]).toEqual({ method: 'GET', path: '/sse', sessionId: null, rpc: [], headers })
    const posts = captured.filter((entry) => entry.method === 'POST')
    expect(posts.map((entry) => (entry.rpc as string[])[0])).toEqual([
      ...['initialize', 'notifications/initialized', 'tools/list'],
      ...['tools/call', 'tools/call'],
    ])
    for (const post of posts) {
      expect(post).toMatchObject({ path: '/messages', sessionId: expect.any(String), headers })
    }
    await client.close()
    expect(await stopWithSigterm(child)).toBe(0)
  })
})

describe('tool list changes (--grow)', () => {
  type Change = { error: Error | null; items: unknown[] | null }

  function growingClient(mode: 'auto' | 'legacy'): { client: Client; changes: Change[] } {
    const changes: Change[] = []
    const client = new Client(
      { name: 'fixtures-test', version: '1.0.0' },
      {
        versionNegotiation: { mode, probe: { timeoutMs: 5000 } },
        listChanged: {
          tools: {
            autoRefresh: false,
            debounceMs: 0,
            onChanged: (error, items) => changes.push({ error, items }),
          },
        },
      },
    )
    clients.push(client)
    return { client, changes }
  }

  async function growAndCheck(client: Client, changes: Change[], name: string): Promise<void> {
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true })
    const before = await client.request({ method: 'tools/list', params: {} })
    expect(before.tools.map((tool) => tool.name)).not.toContain(name)
    const grown = await client.callTool({ name: 'grow', arguments: { name } })
    expect(grown.content).toEqual([{ type: 'text', text: `added ${name}` }])
    await waitFor(() => changes.length > 0)
    // autoRefresh: false → no list in the callback; the caller refreshes.
    expect(changes).toEqual([{ error: null, items: null }])
    const after = await client.request({ method: 'tools/list', params: {} })
    expect(after.tools.map((tool) => tool.name)).toContain(name)
    const call = await client.callTool({ name, arguments: { text: 'new' } })
    expect(call.content).toEqual([{ type: 'text', text: 'new' }])
    const again = await client.callTool({ name: 'grow', arguments: { name } })
    expect(again.isError).toBe(true)
  }

  it('notifies a legacy stdio client unsolicited', async () => {
    const { client, changes } = growingClient('legacy')
    const args = [stdioServerPath, '--era', 'dual', '--grow']
    await client.connect(new StdioClientTransport({ command: process.execPath, args }))
    expect(client.getProtocolEra()).toBe('legacy')
    await growAndCheck(client, changes, 'sprout')
  })

  it('notifies a modern stdio client on its auto-opened subscriptions/listen stream', async () => {
    const { client, changes } = growingClient('auto')
    const args = [stdioServerPath, '--era', 'modern', '--grow']
    await client.connect(new StdioClientTransport({ command: process.execPath, args }))
    expect(client.getProtocolEra()).toBe('modern')
    expect(client.autoOpenedSubscription).toBeDefined()
    await growAndCheck(client, changes, 'sprout')
  })

  it('needs an explicit listen() after connecting with a remembered modern discover result', async () => {
    const args = [stdioServerPath, '--era', 'modern', '--grow']
    const probe = growingClient('auto').client
    await probe.connect(new StdioClientTransport({ command: process.execPath, args }))
    const discover = probe.getDiscoverResult() as DiscoverResult
    await probe.close()

    const { client, changes } = growingClient('auto')
    const transport = new StdioClientTransport({ command: process.execPath, args })
    await client.connect(transport, { prior: { kind: 'modern', discover } })
    expect(client.autoOpenedSubscription).toBeUndefined()
    await client.callTool({ name: 'grow', arguments: { name: 'unheard' } })
    // A barrier: a notification the server sent while growing would arrive before this answer.
    const grown = await client.request({ method: 'tools/list', params: {} })
    expect(grown.tools.map((tool) => tool.name)).toContain('unheard')
    expect(changes).toEqual([])
    await client.listen({ toolsListChanged: true })
    await growAndCheck(client, changes, 'heard')
    // After growAndCheck's round trips, a late notice of the first change would have arrived too.
    expect(changes).toHaveLength(1)
  })

  it('notifies a legacy Streamable HTTP session on its standalone GET stream', async () => {
    const child = await startHttpFixture(httpServerPath, ['--grow'])
    const { client, changes } = growingClient('legacy')
    await client.connect(new StreamableHTTPClientTransport(new URL(child.url)))
    await growAndCheck(client, changes, 'sprout')
  })
})
