// Following a server live against real daemons: the stream's `follow_server` (replay, then live,
// then nothing after `unfollow_server`) and `ferry logs --follow` / `ferry trace --follow`.

import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { afterEach, describe, expect, it } from 'vitest'
import type { StreamMessage } from '../src/protocol/index.js'
import { cleanup, ferryBin, fixture, waitFor, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'
import { openStream } from './stream-harness.js'

const children: Array<() => void> = []
afterEach(async () => {
  for (const stop of children.splice(0)) stop()
  await cleanup()
})

const json = { 'content-type': 'application/json' }

async function call(daemon: Daemon, tool: string, args: Record<string, unknown>) {
  const response = await daemon.api('/call', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ tool, arguments: args }),
  })
  expect(response.status).toBe(200)
}

type Trace = Extract<StreamMessage, { type: 'trace' }>
type ServerLog = Extract<StreamMessage, { type: 'server_log' }>

/** A `ferry` command left running, its stdout lines collected as they come. */
function follow(daemon: Daemon, args: string[]): { lines: string[]; stop: () => void } {
  const child = spawn(process.execPath, [ferryBin, '--state-dir', daemon.stateDir, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const stop = () => child.kill('SIGTERM')
  children.push(stop)
  const lines: string[] = []
  createInterface({ input: child.stdout }).on('line', (line) => lines.push(line))
  return { lines, stop }
}

describe('follow_server on the stream', () => {
  it('replays what is kept, then sends each new trace entry and log line, and nothing after unfollow', async () => {
    const daemon = await startInProcess({
      mcpServers: { fix: fixture(['--log-tool', '--stderr', 'started up']) },
    })
    await daemon.waitForStatus('fix', 'ready')
    const stream = await openStream(daemon)
    stream.send({ type: 'hello', client: { kind: 'api', label: 'follower' }, readOnly: true })
    stream.send({
      type: 'follow_server',
      ref: 'f1',
      server: 'fix',
      feeds: ['trace', 'logs'],
      traceAfterSeq: 0,
      logsAfterSeq: 0,
    })
    expect(await stream.reply('f1')).toMatchObject({ ok: true })
    const before = stream.messages.length
    const replayed = stream.messages.filter((m): m is Trace => m.type === 'trace')
    expect(replayed[0]?.entry).toMatchObject({ seq: 1, method: 'initialize' })
    expect(replayed.map((m) => m.entry.seq)).toEqual(replayed.map((_, i) => i + 1))
    expect(
      stream.messages.find((m): m is ServerLog => m.type === 'server_log')?.line,
    ).toMatchObject({ source: 'stderr', text: 'started up' })

    await call(daemon, 'mcp_fix_emit_logs', { count: 1, level: 'error', text: 'live one' })
    const live = await waitFor(() => {
      const after = stream.messages.slice(before)
      const answered = after.some(
        (m) => m.type === 'trace' && m.entry.kind === 'response' && m.entry.method === 'tools/call',
      )
      return answered ? after : undefined
    })
    const liveTrace = live.filter((m): m is Trace => m.type === 'trace').map((m) => m.entry)
    // Every new entry comes, in order; the daemon's own listing after `ready` may still be among
    // them, so the call's entries are picked out by method.
    expect(liveTrace.map((entry) => entry.seq)).toEqual(
      liveTrace.map((_, i) => replayed.length + 1 + i),
    )
    expect(
      liveTrace
        .map((entry) => entry.method)
        .filter((method) => method === 'tools/call' || method === 'notifications/message'),
    ).toEqual(['tools/call', 'notifications/message', 'tools/call'])
    expect(live.find((m): m is ServerLog => m.type === 'server_log')?.line).toMatchObject({
      source: 'mcp',
      level: 'error',
      data: 'live one',
    })

    stream.send({ type: 'unfollow_server', ref: 'u1', server: 'fix' })
    await stream.reply('u1')
    const quiet = stream.messages.length
    await call(daemon, 'mcp_fix_emit_logs', { count: 1, level: 'error' })
    // A barrier: the reply comes after anything the call would have sent on this stream.
    stream.send({ type: 'unfollow_server', ref: 'u2', server: 'fix' })
    await stream.reply('u2')
    expect(stream.messages.slice(quiet).map((m) => m.type)).toEqual(['reply'])
  })

  it('refuses an unknown server and bad feeds with a reply that says what is wrong', async () => {
    const daemon = await startInProcess({ mcpServers: { fix: fixture([]) } })
    await daemon.waitForStatus('fix', 'ready')
    const stream = await openStream(daemon)
    stream.send({ type: 'follow_server', ref: 'a', server: 'nope', feeds: ['trace'] })
    expect(await stream.reply('a')).toMatchObject({
      ok: false,
      error: { code: 'not_found', message: 'no server named "nope"' },
    })
    stream.ws.send(JSON.stringify({ type: 'follow_server', ref: 'b', server: 'fix', feeds: [] }))
    stream.ws.send(
      JSON.stringify({ type: 'follow_server', ref: 'c', server: 'fix', feeds: ['everything'] }),
    )
    const errors = await waitFor(() => {
      const found = stream.messages.filter((m) => m.type === 'error')
      return found.length === 2 ? found : undefined
    })
    expect(errors.map((m) => (m as { error: { message: string } }).error.message)).toEqual([
      'feeds: name at least one feed: "trace", "logs"',
      'feeds.0: expected "trace" or "logs"',
    ])
  })
})

describe('ferry logs --follow and ferry trace --follow', () => {
  it('print what is kept, then keep printing new lines as the server sends them', async () => {
    const daemon = await startInProcess({
      mcpServers: { fix: fixture(['--log-tool', '--stderr', 'booted']) },
    })
    await daemon.waitForStatus('fix', 'ready')
    const logs = follow(daemon, ['logs', 'fix', '--follow'])
    const traced = follow(daemon, ['trace', 'fix', '-f', '--json'])
    await waitFor(() => logs.lines.find((line) => line.endsWith(' booted')), 15_000, 'the replay')
    await waitFor(() => traced.lines.find((line) => line.includes('"initialize"')), 15_000, 'trace')

    await call(daemon, 'mcp_fix_emit_logs', { count: 1, level: 'warning', text: 'as it happens' })
    const line = await waitFor(
      () => logs.lines.find((each) => each.endsWith(' as it happens')),
      15_000,
      'the live log line',
    )
    expect(line).toMatch(/^\d\d:\d\d:\d\d\.\d{3} warning +as it happens$/)
    const answer = await waitFor(
      () =>
        traced.lines
          .map((each) => JSON.parse(each) as { kind: string; method: string; latencyMs: number })
          .find((entry) => entry.kind === 'response' && entry.method === 'tools/call'),
      15_000,
      'the live trace entry',
    )
    expect(answer.latencyMs).toEqual(expect.any(Number))
    // Each line once: the replay and the live feed do not overlap.
    expect(logs.lines.filter((each) => each.endsWith(' booted'))).toHaveLength(1)
  })
})
