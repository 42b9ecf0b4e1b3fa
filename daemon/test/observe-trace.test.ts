// The protocol trace against real daemons: every JSON-RPC message each way for stdio (both eras),
// Streamable HTTP and SSE, requests paired with their answers, header values never recorded, the
// 1,000-per-direction bound, the bound on a log flood, and `ferry trace`.

import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { afterEach, describe, expect, it } from 'vitest'
import type { CallResponse, TraceEntry, TraceResponse } from '../src/protocol/index.js'
import { cleanup, fixture, httpServerPath, sseServerPath, type Daemon, waitFor } from './harness.js'
import { startInProcess } from './in-process.js'

const children: Array<() => void> = []
afterEach(async () => {
  for (const stop of children.splice(0)) stop()
  await cleanup()
})

const json = { 'content-type': 'application/json' }
const SECRET = 'trace-secret-4f1c9a'

async function startRemoteFixture(path: string, flags: string[] = []): Promise<string> {
  const child = spawn(process.execPath, [path, '--port', '0', ...flags], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  children.push(() => child.kill('SIGTERM'))
  const lines = createInterface({ input: child.stdout })
  for await (const line of lines) return (JSON.parse(line) as { url: string }).url
  throw new Error('remote fixture printed no url')
}

async function call(daemon: Daemon, tool: string, args: Record<string, unknown> = {}) {
  const response = await daemon.api('/call', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ tool, arguments: args }),
  })
  expect(response.status).toBe(200)
  return (await response.json()) as CallResponse
}

async function trace(daemon: Daemon, server: string, after = 0): Promise<TraceEntry[]> {
  const response = await daemon.api(`/servers/${server}/trace?after=${after}`)
  expect(response.status).toBe(200)
  return ((await response.json()) as TraceResponse).entries
}

/** The request of the last `tools/call` in the trace and its answer. */
function lastCall(entries: TraceEntry[]): { request: TraceEntry; answer: TraceEntry } {
  const request = entries.filter((e) => e.kind === 'request' && e.method === 'tools/call').at(-1)
  const answer = entries.find(
    (e) => e.direction === 'in' && e.kind === 'response' && e.id === request?.id,
  )
  if (request === undefined || answer === undefined) throw new Error('no call in the trace')
  return { request, answer }
}

describe('the protocol trace', () => {
  it("shows a call's request and its response paired, with size and latency", async () => {
    const daemon = await startInProcess({ mcpServers: { fix: fixture([]) } })
    await daemon.waitForStatus('fix', 'ready')
    await call(daemon, 'mcp_fix_slow', { steps: 2, delayMs: 60 })
    const entries = await trace(daemon, 'fix')
    expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i + 1))
    expect(entries.slice(0, 2)).toMatchObject([
      { direction: 'out', kind: 'request', method: 'initialize', id: 0, latencyMs: null },
      { direction: 'in', kind: 'response', method: 'initialize', id: 0 },
    ])
    const { request, answer } = lastCall(entries)
    expect(request).toMatchObject({ direction: 'out', latencyMs: null })
    expect(request.message).toMatchObject({
      jsonrpc: '2.0',
      method: 'tools/call',
      params: { name: 'slow', arguments: { steps: 2, delayMs: 60 } },
    })
    expect(request.bytes).toBe(Buffer.byteLength(JSON.stringify(request.message)))
    expect(answer).toMatchObject({ direction: 'in', kind: 'response', method: 'tools/call' })
    // The server slept 2 × 60 ms between the two.
    expect(answer.latencyMs).toBeGreaterThanOrEqual(120)
    expect(Date.parse(answer.time)).toBeGreaterThanOrEqual(Date.parse(request.time) + 100)
    const between = entries.filter((e) => e.seq > request.seq && e.seq < answer.seq)
    expect(between.map((e) => [e.direction, e.kind, e.method])).toEqual([
      ['in', 'notification', 'notifications/progress'],
      ['in', 'notification', 'notifications/progress'],
    ])
    expect(await trace(daemon, 'fix', request.seq)).toEqual(entries.slice(request.seq))
    const bad = await daemon.api('/servers/fix/trace?after=-1')
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { error: { message: string } }).error.message).toContain(
      'after: expected a non-negative integer',
    )
    expect((await daemon.api('/servers/nobody/trace')).status).toBe(404)
  })

  it('sees every message of a 2026-07-28 stdio connection, discover included', async () => {
    const daemon = await startInProcess({
      mcpServers: { modern: fixture([], { versionNegotiation: 'auto' }) },
    })
    expect((await daemon.waitForStatus('modern', 'ready')).era).toBe('modern')
    await call(daemon, 'mcp_modern_echo', { text: 'hi' })
    const entries = await trace(daemon, 'modern')
    expect(entries[0]).toMatchObject({ direction: 'out', method: 'server/discover' })
    expect(entries.some((e) => e.method === 'initialize')).toBe(false)
    const { request, answer } = lastCall(entries)
    expect(answer.latencyMs).not.toBeNull()
    expect(answer.message).toMatchObject({ result: { content: [{ type: 'text', text: 'hi' }] } })
    expect(request.message).toMatchObject({
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
    })
  })

  for (const transport of ['streamable-http', 'sse'] as const) {
    it(`over ${transport}, records the messages and never the configured Authorization header`, async () => {
      const url = await startRemoteFixture(transport === 'sse' ? sseServerPath : httpServerPath)
      const daemon = await startInProcess(
        {
          mcpServers: {
            remote: {
              url,
              transport,
              trust: true,
              headers: { Authorization: 'Bearer ${FERRY_TEST_TRACE_TOKEN}', 'x-test': SECRET },
            },
          },
        },
        { env: { FERRY_TEST_TRACE_TOKEN: SECRET } },
      )
      expect(await daemon.waitForStatus('remote', 'ready')).toMatchObject({ transport })
      await call(daemon, 'mcp_remote_echo', { text: 'over the wire' })
      // The header did reach the server: the test would see it if the trace kept it.
      const captured = (await (await fetch(new URL('/captured', url))).json()) as Array<{
        headers: Record<string, string>
      }>
      expect(captured.some((r) => r.headers.authorization === `Bearer ${SECRET}`)).toBe(true)

      const entries = await trace(daemon, 'remote')
      const { answer } = lastCall(entries)
      expect(answer.message).toMatchObject({ result: { content: [{ text: 'over the wire' }] } })
      expect(answer.latencyMs).not.toBeNull()
      expect(entries.filter((e) => e.direction === 'out').length).toBeGreaterThanOrEqual(4)
      const answers = await Promise.all(
        [
          '/servers/remote/trace',
          '/servers/remote/logs',
          '/servers/remote/log-level',
          '/servers',
          '/status',
          '/tools',
        ].map(async (path) => [path, await (await daemon.api(path)).text()] as const),
      )
      for (const [path, text] of answers) {
        expect(text.length, path).toBeGreaterThan(0)
        expect(text, path).not.toContain(SECRET)
      }
      const cli = await daemon.cli(['trace', 'remote', '--json'])
      expect(cli.code).toBe(0)
      expect(cli.stdout).toContain('"method":"tools/call"')
      expect(cli.stdout).not.toContain(SECRET)
    })
  }

  it('keeps the last 1,000 messages each way, and a log flood reaches transcripts bounded', async () => {
    const daemon = await startInProcess({ mcpServers: { flood: fixture(['--log-tool']) } })
    await daemon.waitForStatus('flood', 'ready')
    const done = await call(daemon, 'mcp_flood_emit_logs', { count: 1500, level: 'info' })
    const entries = await trace(daemon, 'flood')
    const incoming = entries.filter((e) => e.direction === 'in')
    expect(incoming).toHaveLength(1000)
    // The newest are kept: the call's answer is the last message in.
    expect(incoming.at(-1)).toMatchObject({ kind: 'response', method: 'tools/call' })
    expect(incoming[0]?.message).toMatchObject({ params: { data: 'message 502 of 1500' } })
    // Nothing out was lost: initialize, initialized, the listings, setLevel and the call.
    expect(entries.filter((e) => e.direction === 'out').map((e) => e.method)).toContain(
      'tools/call',
    )
    expect(entries.at(-1)?.seq).toBeGreaterThan(1500)

    // Every message is either in the transcript or counted in a notice (one a second at most).
    const { logged, dropped } = await waitFor(async () => {
      const events = await daemon.events()
      const logged = events.filter((e) => e.type === 'server.log' && e.callId === done.id)
      const dropped = events
        .map((e) =>
          e.type === 'notice' ? /server "flood" sent (\d+) log messages/.exec(e.message) : null,
        )
        .reduce((sum, match) => sum + Number(match?.[1] ?? 0), 0)
      return logged.length + dropped === 1500 ? { logged, dropped } : undefined
    })
    expect(logged.length).toBeGreaterThanOrEqual(100)
    expect(logged.length).toBeLessThan(200)
    expect(dropped).toBeGreaterThan(1300)
    // `ferry logs` keeps the last 1,000 lines whatever the transcripts dropped.
    const logs = await daemon.cli(['logs', 'flood', '--json'])
    const lines = logs.stdout.trimEnd().split('\n')
    expect(lines).toHaveLength(1000)
    expect(lines.at(-1)).toContain('message 1500 of 1500')
  })
})

describe('ferry trace', () => {
  it('prints one line per message with time, direction, method, id, size and latency', async () => {
    const daemon = await startInProcess({ mcpServers: { fix: fixture([]) } })
    await daemon.waitForStatus('fix', 'ready')
    await call(daemon, 'mcp_fix_echo', { text: 'x' })
    const { request, answer } = lastCall(await trace(daemon, 'fix'))
    const plain = await daemon.cli(['trace', 'fix'])
    expect(plain.code).toBe(0)
    const lines = plain.stdout.trimEnd().split('\n')
    const sent = lines.find((line) => / → request +tools\/call +#\d+ /.test(line))
    const back = lines.find((line) => / ← response +tools\/call +#\d+ /.test(line))
    expect(sent).toMatch(
      new RegExp(
        `^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} → request +tools/call +#${request.id} +${request.bytes} B$`,
      ),
    )
    expect(back).toMatch(
      new RegExp(
        `^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} ← response +tools/call +#${answer.id} +${answer.bytes} B  ${answer.latencyMs} ms$`,
      ),
    )
    const unknown = await daemon.cli(['trace', 'nope'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('no server named "nope"')
  })
})
