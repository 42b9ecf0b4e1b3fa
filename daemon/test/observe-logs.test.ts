// MCP log messages against real daemons: where `notifications/message` lands in transcripts, how
// the per-server level reaches servers of both eras (legacy `logging/setLevel`, the 2026-07-28
// per-request `_meta` level), changing it at run time and by reload, and `ferry logs`.

import { createRequire } from 'node:module'
import { afterEach, describe, expect, it } from 'vitest'
import type {
  CallResponse,
  LogLevel,
  LogLevelResponse,
  LogsResponse,
  SessionInfo,
  TraceEntry,
  TraceResponse,
  TranscriptEvent,
} from '../src/protocol/index.js'
import { LOG_LEVELS } from '../src/protocol/index.js'
import { cleanup, fixture, waitFor, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'

afterEach(cleanup)

const json = { 'content-type': 'application/json' }
const from = (level: LogLevel) => LOG_LEVELS.slice(LOG_LEVELS.indexOf(level))

async function call(daemon: Daemon, tool: string, args: Record<string, unknown> = {}) {
  const response = await daemon.api('/call', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ tool, arguments: args }),
  })
  expect(response.status).toBe(200)
  return (await response.json()) as CallResponse
}

async function trace(daemon: Daemon, server: string): Promise<TraceEntry[]> {
  return ((await (await daemon.api(`/servers/${server}/trace`)).json()) as TraceResponse).entries
}

async function setLevel(daemon: Daemon, server: string, level: string): Promise<Response> {
  return daemon.api(`/servers/${server}/log-level`, {
    method: 'PUT',
    headers: json,
    body: JSON.stringify({ level }),
  })
}

type LogEvent = Extract<TranscriptEvent, { type: 'server.log' }>

/** The `server.log` events stored for `callId`, once its result is stored (they come first). */
async function logsOfCall(daemon: Daemon, callId: string): Promise<LogEvent[]> {
  await daemon.waitForEvent((e) => e.type === 'call.result' && e.callId === callId)
  return (await daemon.events()).filter(
    (e): e is LogEvent => e.type === 'server.log' && e.callId === callId,
  )
}

/** The `notifications/message` the server sent during the call whose request was `requestSeq`. */
function sentDuring(entries: TraceEntry[], callSeq: number): unknown[] {
  const response = entries.find(
    (e) => e.seq > callSeq && e.kind === 'response' && e.method === 'tools/call',
  )
  return entries
    .filter(
      (e) =>
        e.seq > callSeq &&
        e.seq < (response?.seq ?? Infinity) &&
        e.direction === 'in' &&
        e.method === 'notifications/message',
    )
    .map((e) => (e.message as { params: { level: string } }).params.level)
}

describe('MCP log messages', () => {
  it('a legacy server is told its level with logging/setLevel, and a call’s messages reach its session with the callId', async () => {
    const daemon = await startInProcess({
      mcpServers: { logs: fixture(['--log-tool', '--era', 'legacy'], { logLevel: 'warning' }) },
    })
    await daemon.waitForStatus('logs', 'ready')
    const level = (await (await daemon.api('/servers/logs/log-level')).json()) as LogLevelResponse
    expect(level).toEqual({
      server: 'logs',
      level: 'warning',
      source: 'settings',
      delivery: 'setLevel',
    })

    const first = await call(daemon, 'mcp_logs_emit_logs')
    const events = await logsOfCall(daemon, first.id)
    expect(events.map((e) => e.level)).toEqual(from('warning'))
    expect(events[0]).toMatchObject({ server: 'logs', logger: null, data: 'warning message' })
    // The server itself sent only what the level asked for: the filter is the server's.
    let entries = await trace(daemon, 'logs')
    const setLevels = entries.filter((e) => e.method === 'logging/setLevel' && e.kind === 'request')
    expect(setLevels.map((e) => (e.message as { params: unknown }).params)).toEqual([
      { level: 'warning' },
    ])
    const callRequest = entries.find((e) => e.kind === 'request' && e.method === 'tools/call')
    expect(sentDuring(entries, callRequest?.seq ?? 0)).toEqual(from('warning'))

    const changed = await setLevel(daemon, 'logs', 'debug')
    expect(changed.status).toBe(200)
    expect(await changed.json()).toEqual({
      server: 'logs',
      level: 'debug',
      source: 'runtime',
      delivery: 'setLevel',
    })
    const second = await call(daemon, 'mcp_logs_emit_logs', { logger: 'fixture' })
    const more = await logsOfCall(daemon, second.id)
    expect(more.map((e) => e.level)).toEqual([...LOG_LEVELS])
    expect(more[0]?.logger).toBe('fixture')
    entries = await trace(daemon, 'logs')
    const lastCall = entries.filter((e) => e.kind === 'request' && e.method === 'tools/call').at(-1)
    expect(sentDuring(entries, lastCall?.seq ?? 0)).toEqual([...LOG_LEVELS])
  })

  it('a 2026-07-28 server gets the level in every request’s _meta, and a change applies to the next request', async () => {
    const daemon = await startInProcess({
      mcpServers: {
        modern: fixture(['--log-tool'], { logLevel: 'warning', versionNegotiation: 'auto' }),
      },
    })
    const info = await daemon.waitForStatus('modern', 'ready')
    expect(info.era).toBe('modern')
    const first = await call(daemon, 'mcp_modern_emit_logs')
    expect((await logsOfCall(daemon, first.id)).map((e) => e.level)).toEqual(from('warning'))
    let entries = await trace(daemon, 'modern')
    expect(entries.some((e) => e.method === 'logging/setLevel')).toBe(false)
    const request = entries.find((e) => e.kind === 'request' && e.method === 'tools/call')
    expect(request?.message).toMatchObject({
      params: { _meta: { 'io.modelcontextprotocol/logLevel': 'warning' } },
    })
    expect(sentDuring(entries, request?.seq ?? 0)).toEqual(from('warning'))

    const changed = await setLevel(daemon, 'modern', 'info')
    expect(((await changed.json()) as LogLevelResponse).delivery).toBe('request-meta')
    const second = await call(daemon, 'mcp_modern_emit_logs')
    expect((await logsOfCall(daemon, second.id)).map((e) => e.level)).toEqual(from('info'))
    entries = await trace(daemon, 'modern')
    const again = entries.filter((e) => e.kind === 'request' && e.method === 'tools/call').at(-1)
    expect(sentDuring(entries, again?.seq ?? 0)).toEqual(from('info'))
  })

  it('a message outside any call goes to every session of the workspace, without a callId', async () => {
    const daemon = await startInProcess({
      mcpServers: { logs: fixture(['--log-tool', '--apps', '--era', 'legacy']) },
    })
    await daemon.waitForStatus('logs', 'ready')
    const created = await daemon.api('/sessions', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'second' }),
    })
    const second = (await created.json()) as SessionInfo
    await call(daemon, 'mcp_logs_emit_logs', {
      count: 1,
      afterMs: 0,
      level: 'error',
    })
    const isLater = (e: TranscriptEvent) =>
      e.type === 'server.log' && e.data === 'after the call' && e.callId === null
    await daemon.waitForEvent(isLater)
    await waitFor(async () => (await daemon.events(second.id)).find(isLater), 10_000, 'second')

    // Answered on the wire, not yet finished in Ferry (its App is being read): no longer the call's.
    const shown = await call(daemon, 'mcp_logs_app_show', { text: 'x' })
    await daemon.waitForEvent((e) => e.type === 'call.result' && e.callId === shown.id)
    const reading = (await daemon.events()).find(
      (e) => e.type === 'server.log' && e.data === 'reading ui://fixture/show',
    )
    expect(reading).toMatchObject({ level: 'notice', callId: null })
  })

  it('a call cancelled without an answer from the server leaves the next call its own messages', async () => {
    const daemon = await startInProcess({
      mcpServers: { logs: fixture(['--log-tool', '--era', 'legacy']) },
    })
    await daemon.waitForStatus('logs', 'ready')
    const slow = daemon.api('/call', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ tool: 'mcp_logs_slow', arguments: { steps: 100 }, id: 'slow-one' }),
    })
    await waitFor(async () => (await trace(daemon, 'logs')).find((e) => e.method === 'tools/call'))
    expect((await daemon.api('/calls/slow-one/cancel', { method: 'POST' })).status).toBe(200)
    await slow
    await daemon.waitForEvent((e) => e.type === 'call.cancelled')
    const entries = await trace(daemon, 'logs')
    expect(entries.some((e) => e.method === 'notifications/cancelled')).toBe(true)
    const next = await call(daemon, 'mcp_logs_emit_logs', { count: 2, level: 'error' })
    expect((await logsOfCall(daemon, next.id)).map((e) => e.level)).toEqual(['error', 'error'])
  })

  it('a reload that changes logLevel applies it without reconnecting', async () => {
    const server = (level: string) => ({
      mcpServers: { logs: fixture(['--log-tool', '--era', 'legacy'], { logLevel: level }) },
    })
    const daemon = await startInProcess(server('error'))
    await daemon.waitForStatus('logs', 'ready')
    await daemon.writeSettings(server('info'))
    const reload = (await (await daemon.api('/reload', { method: 'POST' })).json()) as {
      unchanged: string[]
    }
    expect(reload.unchanged).toContain('logs')
    const entries = await waitFor(async () => {
      const all = await trace(daemon, 'logs')
      return all.filter((e) => e.method === 'logging/setLevel' && e.kind === 'response').length ===
        2
        ? all
        : undefined
    })
    expect(entries.filter((e) => e.method === 'initialize' && e.kind === 'request')).toHaveLength(1)
    const levels = entries
      .filter((e) => e.method === 'logging/setLevel' && e.kind === 'request')
      .map((e) => (e.message as { params: { level: string } }).params.level)
    expect(levels).toEqual(['error', 'info'])
    const done = await call(daemon, 'mcp_logs_emit_logs')
    expect((await logsOfCall(daemon, done.id)).map((e) => e.level)).toEqual(from('info'))
  })

  it('a bad level is refused with what to write, in settings and over REST', async () => {
    const daemon = await startInProcess({
      mcpServers: {
        logs: fixture(['--log-tool'], { logLevel: 'verbose' }),
        good: fixture([]),
      },
    })
    const bad = await daemon.waitForStatus('logs', 'invalid')
    expect(bad.error).toContain('mcpServers.logs.logLevel')
    expect(bad.error).toContain('expected one of "debug", "info"')
    await daemon.waitForStatus('good', 'ready')
    const refused = await setLevel(daemon, 'good', 'loud')
    expect(refused.status).toBe(400)
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      /^level: expected one of "debug"/,
    )
    const unknown = await setLevel(daemon, 'nobody', 'info')
    expect(unknown.status).toBe(404)
  })

  it('server-everything’s simulated logging arrives at the level Ferry set with logging/setLevel', async () => {
    const require = createRequire(import.meta.url)
    const everything = require.resolve('@modelcontextprotocol/server-everything/dist/index.js')
    const daemon = await startInProcess({
      mcpServers: {
        everything: {
          command: process.execPath,
          args: [everything, 'stdio'],
          trust: true,
          logLevel: 'debug',
        },
      },
    })
    await daemon.waitForStatus('everything', 'ready', 30_000)
    const toggled = await call(daemon, 'mcp_everything_toggle-simulated-logging')
    // It sends one message at once (a random level, all at or above debug), then one every 5 s.
    const first = await daemon.waitForEvent(
      (e) => e.type === 'server.log' && e.server === 'everything',
    )
    expect(first).toMatchObject({ callId: toggled.id })
    expect(String((first as LogEvent).data)).toMatch(/level.message/)
    const changed = await setLevel(daemon, 'everything', 'emergency')
    expect(((await changed.json()) as LogLevelResponse).delivery).toBe('setLevel')
    const entries = await trace(daemon, 'everything')
    const asked = entries.filter((e) => e.method === 'logging/setLevel')
    expect(asked.map((e) => [e.kind, (e.message as { params?: unknown }).params])).toEqual([
      ['request', { level: 'debug' }],
      ['response', undefined],
      ['request', { level: 'emergency' }],
      ['response', undefined],
    ])
  })
})

describe('ferry logs', () => {
  it('shows stderr and MCP log messages interleaved in the order they came, and as JSON lines', async () => {
    const daemon = await startInProcess({
      mcpServers: { logs: fixture(['--log-tool', '--stderr', 'hello from stderr']) },
    })
    await daemon.waitForStatus('logs', 'ready')
    const done = await call(daemon, 'mcp_logs_emit_logs', { count: 2, level: 'notice' })
    await logsOfCall(daemon, done.id)
    const plain = await daemon.cli(['logs', 'logs'])
    expect(plain.code).toBe(0)
    const lines = plain.stdout.trimEnd().split('\n')
    const stderrAt = lines.findIndex((line) => line.includes('hello from stderr'))
    const firstMcp = lines.findIndex((line) => line.endsWith(' message 1 of 2'))
    const secondMcp = lines.findIndex((line) => line.endsWith(' message 2 of 2'))
    expect(stderrAt).toBeGreaterThanOrEqual(0)
    expect(firstMcp).toBeGreaterThan(stderrAt)
    expect(secondMcp).toBeGreaterThan(firstMcp)
    expect(lines[firstMcp]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} notice {4}message 1 of 2$/)
    expect(lines[stderrAt]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} stderr {4}hello from stderr$/)

    const asJson = await daemon.cli(['logs', 'logs', '--json'])
    const parsed = asJson.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as LogsResponse['entries'][number])
    expect(parsed.map((line) => line.source)).toContain('stderr')
    expect(parsed.filter((line) => line.source === 'mcp')).toMatchObject([
      { level: 'notice', logger: null, data: 'message 1 of 2' },
      { level: 'notice', logger: null, data: 'message 2 of 2' },
    ])
    const seqs = parsed.map((line) => line.seq)
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs)
  })

  it('--level asks the server to log at that level, as the WebShell does, and prints no MCP message below it', async () => {
    const daemon = await startInProcess({
      mcpServers: { logs: fixture(['--log-tool', '--era', 'legacy', '--stderr', 'from stderr']) },
    })
    await daemon.waitForStatus('logs', 'ready')
    await logsOfCall(
      daemon,
      (await call(daemon, 'mcp_logs_emit_logs', { count: 1, level: 'info' })).id,
    )
    await logsOfCall(
      daemon,
      (await call(daemon, 'mcp_logs_emit_logs', { count: 1, level: 'error' })).id,
    )

    const warning = await daemon.cli(['logs', 'logs', '--level', 'warning'])
    expect(warning.code).toBe(0)
    expect(warning.stderr).toBe(
      'logs logs at warning and above (sent to the server with logging/setLevel)\n',
    )
    expect(warning.stdout).toMatch(/ stderr {4}from stderr\n/)
    expect(warning.stdout).toMatch(/ error {5}message 1 of 1\n/)
    expect(warning.stdout).not.toContain(' info ')
    const level = (await (await daemon.api('/servers/logs/log-level')).json()) as LogLevelResponse
    expect(level).toMatchObject({ level: 'warning', source: 'runtime' })

    const wrong = await daemon.cli(['logs', 'logs', '--level', 'loud'])
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toContain('expected one of "debug", "info"')
  })
})
