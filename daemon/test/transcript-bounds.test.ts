import { spawn, type ChildProcess } from 'node:child_process'
import { connect, type Socket } from 'node:net'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import type {
  CallResponse,
  CallStreamLine,
  SessionInfo,
  TranscriptEvent,
} from '../src/protocol/index.js'
import { PROGRESS_BURST, PROGRESS_INTERVAL_MS } from '../src/sessions/progress-coalescer.js'
import {
  cleanup,
  ferryBin,
  fixture,
  rawLegacyServerPath,
  startDaemon,
  waitFor,
  type Daemon,
} from './harness.js'
import { startInProcess } from './in-process.js'
import { openStream } from './stream-harness.js'

const json = { 'content-type': 'application/json' }
const DEPTH_MARKER = '[truncated: nesting deeper than 64 levels]'

function call(daemon: Daemon, body: string, accept = 'application/json'): Promise<Response> {
  return daemon.api('/call', { method: 'POST', headers: { ...json, accept }, body })
}

async function streamedLines(response: Response): Promise<CallStreamLine[]> {
  const text = await response.text()
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as CallStreamLine)
}

/** The innermost value of arrays nested inside arrays, and how many levels it took. */
function innermost(value: unknown): { value: unknown; levels: number } {
  let levels = 0
  while (Array.isArray(value)) {
    value = value[0]
    levels++
  }
  return { value, levels }
}

const children: ChildProcess[] = []

/** `ferry attach --json` in a child process, collecting the events it prints. */
function attachJson(daemon: Daemon): { events: TranscriptEvent[] } {
  const child = spawn(
    process.execPath,
    [ferryBin, '--state-dir', daemon.stateDir, 'attach', '--json'],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  )
  children.push(child)
  const events: TranscriptEvent[] = []
  createInterface({ input: child.stdout }).on('line', (line) =>
    events.push(JSON.parse(line) as TranscriptEvent),
  )
  return { events }
}

describe('transcript bounds', () => {
  let daemon: Daemon

  beforeAll(async () => {
    daemon = await startInProcess({
      mcpServers: {
        raw: { command: process.execPath, args: [rawLegacyServerPath, '--deep'], trust: true },
        fx: fixture(['--progress-flood']),
      },
    })
    await Promise.all([daemon.waitForStatus('raw', 'ready'), daemon.waitForStatus('fx', 'ready')])
  })
  afterAll(async () => {
    for (const child of children.splice(0)) child.kill()
    await cleanup()
  })

  it('stores a result nested 5,000 levels deep shortened with a marker, returns that same result, and the session goes on', async () => {
    const deep = JSON.stringify({ tool: 'mcp_raw_deep', arguments: { depth: 5000 } })
    const answer = await call(daemon, deep)
    expect(answer.status).toBe(200)
    const { id, result } = (await answer.json()) as CallResponse
    const nested = (result.structuredContent as { nested: unknown }).nested
    // The event, its result and structuredContent take three of the 64 levels.
    expect(innermost(nested)).toEqual({ value: DEPTH_MARKER, levels: 61 })
    expect(result.content).toEqual([{ type: 'text', text: 'nested 5000 levels' }])

    const streamed = await streamedLines(await call(daemon, deep, 'application/x-ndjson'))
    expect(streamed.at(-1)).toEqual({ result })

    const events = await daemon.events()
    const stored = events.find((e) => e.type === 'call.result' && e.callId === id)
    expect(stored).toMatchObject({ truncated: 'nesting deeper than 64 levels', result })

    // Replay and live delivery both pass the shortened events: the stream and `ferry attach`
    // reach a call made after them.
    const stream = await openStream(daemon)
    stream.send({ type: 'subscribe', afterSeq: 0 })
    const attach = attachJson(daemon)
    const echo = await call(
      daemon,
      JSON.stringify({ tool: 'mcp_raw_echo', arguments: { text: 'after' } }),
    )
    expect(echo.status).toBe(200)
    const echoId = ((await echo.json()) as CallResponse).id
    const reached = (list: TranscriptEvent[]) =>
      list.some((e) => e.type === 'call.result' && e.callId === echoId) || undefined
    await waitFor(() => reached(stream.events), 15_000, 'the stream to reach the echo result')
    await waitFor(() => reached(attach.events), 15_000, 'ferry attach to reach the echo result')
    for (const list of [stream.events, attach.events]) {
      expect(list.find((e) => e.type === 'call.result' && e.callId === id)).toMatchObject({
        result,
      })
    }
    stream.ws.close()
  })

  it('stores the progress of a flooding call at a bounded rate and keeps the last progress the server sent', async () => {
    const started = Date.now()
    const response = await call(
      daemon,
      JSON.stringify({ tool: 'mcp_fx_progress_flood', arguments: { ms: 2000 } }),
      'application/x-ndjson',
    )
    const lines = await streamedLines(response)
    const elapsed = Date.now() - started
    const first = lines[0]
    const last = lines.at(-1)
    if (first === undefined || !('call' in first) || last === undefined || !('result' in last)) {
      throw new Error(`unexpected call lines: ${JSON.stringify(lines).slice(0, 500)}`)
    }
    const sent = Number(/"text":"sent (\d+)"/.exec(JSON.stringify(last.result.content))?.[1])

    const events = (await daemon.events()).filter(
      (e) => 'callId' in e && e.callId === first.call.id,
    )
    const progress = events.flatMap((e) => (e.type === 'call.progress' ? [e.progress] : []))
    const allowed = PROGRESS_BURST + Math.ceil(elapsed / PROGRESS_INTERVAL_MS) + 1
    expect(progress.length).toBeLessThanOrEqual(allowed)
    expect(sent).toBeGreaterThan(4 * progress.length)
    // The stored transcript ends with the last progress sent before the result.
    expect(events.map((e) => e.type).slice(-2)).toEqual(['call.progress', 'call.result'])
    expect(progress.at(-1)).toBe(sent)
    // The caller saw exactly what is stored.
    const streamedProgress = lines.flatMap((line) =>
      'progress' in line ? [line.progress.progress] : [],
    )
    expect(streamedProgress).toEqual(progress)
  })
})

describe('session files', () => {
  afterAll(cleanup)

  it('loads 300 sessions under a limit of 256 open files, holds 300 idle connections besides, and status and calls still work', async () => {
    const settings = { mcpServers: { fx: fixture([]) } }
    const first = await startDaemon(settings, { ulimit: ['-n', '256'] })
    for (let i = 0; i < 300; i += 20) {
      const created = await Promise.all(
        Array.from({ length: 20 }, (_, j) =>
          first.api('/sessions', {
            method: 'POST',
            headers: json,
            body: JSON.stringify({ name: `s${i + j}` }),
          }),
        ),
      )
      expect(created.map((r) => r.status)).toEqual(created.map(() => 201))
    }
    await first.stop()

    const daemon = await startDaemon(settings, { ulimit: ['-n', '256'], stateDir: first.stateDir })
    const sessions = (await (await daemon.api('/sessions')).json()) as SessionInfo[]
    expect(sessions.filter((s) => /^s\d+$/.test(s.name))).toHaveLength(300)
    // 300 connections that never send anything, held open while status and calls go on.
    const idle = await Promise.all(
      Array.from(
        { length: 300 },
        () =>
          new Promise<Socket>((resolve, reject) => {
            const socket = connect(daemon.info.port, '127.0.0.1')
            socket.once('connect', () => resolve(socket))
            socket.once('error', reject)
          }),
      ),
    )
    onTestFinished(() => idle.forEach((socket) => socket.destroy()))
    const status = await daemon.cli(['status'])
    expect(status.code, status.stderr).toBe(0)
    await daemon.waitForStatus('fx', 'ready')

    const picked = [0, 99, 150, 242, 299].map((i) => sessions.find((s) => s.name === `s${i}`))
    const answers = await Promise.all(
      picked.map((session) =>
        call(
          daemon,
          JSON.stringify({ tool: 'mcp_fx_echo', arguments: { text: 'hi' }, session: session?.id }),
        ),
      ),
    )
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200])
    for (const session of picked) {
      const events = await daemon.events(session?.id)
      // Every session of the workspace also stored the server's status changes of this run.
      expect(events.filter((e) => e.type.startsWith('call.')).map((e) => e.type)).toEqual([
        'call.requested',
        'call.result',
      ])
      expect(events).toContainEqual(
        expect.objectContaining({ type: 'server.status', status: 'ready' }),
      )
    }
    const viaCli = await daemon.cli(['call', 'mcp_fx_echo', '{"text":"from the CLI"}'])
    expect(viaCli.code, viaCli.stderr).toBe(0)
    // Two daemons, 300 sessions written durably and 300 sockets: over 30 s on a loaded machine.
  })
})
