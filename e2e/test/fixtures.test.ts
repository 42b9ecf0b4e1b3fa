// Proves the fixture MCP servers behave as the daemon's end-to-end tests expect: era, pagination,
// progress, server-side recording, raw legacy quirks and HTTP header capture.
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { httpServerPath, rawLegacyServerPath, stdioServerPath } from '../fixtures/paths.js'

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

async function waitFor(check: () => boolean, timeoutMs = 3000): Promise<void> {
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
      { name: 'slow', arguments: { steps: 3, delayMs: 20 } },
      { onprogress: (event) => progress.push(event) },
    )
    expect(slow.content).toEqual([{ type: 'text', text: 'done' }])
    expect(progress.map((event) => [event.progress, event.total, event.message])).toEqual([
      [1, 3, 'step 1/3'],
      [2, 3, 'step 2/3'],
      [3, 3, 'step 3/3'],
    ])

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
    await waitFor(() => replies.length > 0)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(replies).toEqual([{ jsonrpc: '2.0', id: 2, result: {} }])
  })
})

describe('http-server', () => {
  it('serves a legacy session and captures POST headers', async () => {
    const child = spawn(process.execPath, [httpServerPath], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    children.push(child)
    const firstLine = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', resolve)
      child.once('exit', (code) => reject(new Error(`http-server exited with ${code}`)))
    })
    const { url } = JSON.parse(firstLine) as { url: string }
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
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
  })
})
