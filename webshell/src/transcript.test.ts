import { describe, expect, it } from 'vitest'
import type { TranscriptEvent, TranscriptEventBody } from '../../daemon/src/protocol/index.js'
import type { EventLineRow } from './transcript-lines.js'
import { TranscriptModel, type CallRow } from './transcript.js'

const terminal = { id: 't1', kind: 'cli' as const, label: 'ferry call on tty /dev/pts/1' }
const tab = { id: 'w1', kind: 'webshell' as const, label: 'WebShell tab (Chrome)' }

function events(...bodies: TranscriptEventBody[]): TranscriptEvent[] {
  return bodies.map(
    (body, index) =>
      ({
        seq: index + 1,
        time: '2026-01-01T00:00:00.000Z',
        client: body.type === 'confirmation.resolved' ? tab : terminal,
        ...body,
      }) as TranscriptEvent,
  )
}

const requested = (callId: string): TranscriptEventBody => ({
  type: 'call.requested',
  callId,
  tool: 'mcp_demo_echo',
  server: 'demo',
  serverTool: 'echo',
  arguments: { text: 'hi' },
})

describe('TranscriptModel', () => {
  it('folds a call with confirmation, progress and result into one card', () => {
    const model = new TranscriptModel()
    model.apply(
      events(
        requested('a'),
        { type: 'confirmation.requested', callId: 'a', tool: 'mcp_demo_echo', server: 'demo' },
        { type: 'confirmation.resolved', callId: 'a', outcome: 'allow_once' },
        { type: 'call.progress', callId: 'a', progress: 1, total: 4, message: 'one' },
        {
          type: 'call.result',
          callId: 'a',
          result: { content: [{ type: 'text', text: 'hi' }] },
          display: { type: 'plain' },
        },
      ),
    )
    expect(model.rows).toHaveLength(1)
    const row = model.rows[0] as CallRow
    expect(row.state).toBe('done')
    expect(row.client?.label).toBe(terminal.label)
    expect(row.confirmation).toEqual({ state: 'resolved', outcome: 'allow_once', by: tab })
    expect(row.progress).toEqual({ progress: 1, total: 4, message: 'one' })
    expect(model.hasCall('a')).toBe(true)
  })

  it('shows each seq once and replaces only the rows an event changes', () => {
    const model = new TranscriptModel()
    const all = events(requested('a'), requested('b'), {
      type: 'call.cancelled',
      callId: 'b',
    })
    model.apply(all.slice(0, 2))
    const first = model.rows[0]
    const second = model.rows[1]
    model.apply(all)
    expect(model.rows).toHaveLength(2)
    expect(model.rows[0]).toBe(first)
    expect(model.rows[1]).not.toBe(second)
    expect((model.rows[1] as CallRow).state).toBe('cancelled')
    expect(model.lastSeq).toBe(3)
  })

  it('keeps the open confirmations, oldest first, until each is answered or its call ends', () => {
    const model = new TranscriptModel()
    const ask = (callId: string): TranscriptEventBody => ({
      type: 'confirmation.requested',
      callId,
      tool: 'mcp_demo_echo',
      server: 'demo',
    })
    const all = events(
      requested('a'),
      requested('b'),
      requested('c'),
      ask('a'),
      ask('b'),
      ask('c'),
      { type: 'confirmation.resolved', callId: 'b', outcome: 'deny' },
      { type: 'call.cancelled', callId: 'c' },
    )
    model.apply(all.slice(0, 6))
    expect(model.openQuestions().map((question) => question.callId)).toEqual(['a', 'b', 'c'])
    model.apply(all)
    const one = model.openQuestions()
    expect(one).toEqual([{ kind: 'confirmation', id: 'confirmation:a', callId: 'a', seq: 4 }])
    // A change that opens or closes nothing keeps the same list, so its view skips rendering.
    model.apply([{ ...(events(requested('d'))[0] as TranscriptEvent), seq: 9 }])
    expect(model.openQuestions()).toBe(one)
    // A late question for a call that already ended opens nothing.
    model.apply([{ ...(events(ask('c'))[0] as TranscriptEvent), seq: 10 }])
    expect(model.openQuestions()).toBe(one)
  })

  it('keeps an ended call ended and shows a pending confirmation', () => {
    const model = new TranscriptModel()
    model.apply(
      events(
        requested('a'),
        { type: 'call.interrupted', callId: 'a' },
        { type: 'call.progress', callId: 'a', progress: 2 },
        requested('b'),
        { type: 'confirmation.requested', callId: 'b', tool: 'mcp_demo_echo', server: 'demo' },
        { type: 'notice', level: 'warning', message: 'careful' },
        { type: 'server.status', server: 'demo', status: 'failed', error: 'exited with code 1' },
      ),
    )
    expect((model.rows[0] as CallRow).state).toBe('interrupted')
    expect((model.rows[1] as CallRow).confirmation).toEqual({ state: 'pending' })
    expect(model.rows.map((row) => row.kind)).toEqual(['call', 'call', 'notice', 'status'])
  })

  it('shows prompt gets, resource reads and subscriptions as lines saying who caused them', () => {
    const model = new TranscriptModel()
    const messages = [{ role: 'user', content: { type: 'text', text: 'Hello Ann' } }]
    model.apply(
      events(
        {
          type: 'prompt.got',
          server: 'S',
          prompt: 'greet',
          arguments: { name: 'Ann' },
          result: { kept: true, body: { messages: [...messages, ...messages] } },
        },
        {
          type: 'prompt.got',
          server: 'S',
          prompt: 'big',
          arguments: {},
          result: { kept: false, bytes: 200_000 },
        },
        {
          type: 'prompt.failed',
          server: 'S',
          prompt: 'greet',
          arguments: {},
          error: { code: 'server_error', message: 'name is required' },
        },
        {
          type: 'resource.read',
          server: 'S',
          uri: 'note://one',
          result: {
            kept: true,
            body: { contents: [{ uri: 'note://one', text: 'x'.repeat(120) }] },
          },
        },
        {
          type: 'resource.read_failed',
          server: 'S',
          uri: 'note://gone',
          error: { code: 'server_error', message: 'not found' },
        },
        { type: 'resource.subscribed', server: 'S', uri: 'note://one' },
        { type: 'resource.updated', server: 'S', uri: 'note://one' },
        { type: 'resource.unsubscribed', server: 'S', uri: 'note://one' },
      ),
    )
    const lines = model.rows as EventLineRow[]
    const by = terminal.label
    expect(lines.map((line) => [line.kind, line.tone, line.text])).toEqual([
      ['line', 'dim', `prompt greet of server S got by ${by}: 2 messages`],
      ['line', 'dim', `prompt big of server S got by ${by}: 195.3 KB, not kept`],
      ['line', 'error', `prompt greet of server S failed by ${by}: name is required`],
      ['line', 'dim', `read note://one of S by ${by}: 1 text content, 120 B`],
      ['line', 'error', `reading note://gone of S failed by ${by}: not found`],
      ['line', 'dim', `subscribed to note://one of S by ${by}`],
      ['line', 'dim', 'note://one of S changed'],
      ['line', 'dim', `unsubscribed from note://one of S by ${by}`],
    ])
    expect(lines[0]?.body).toEqual({ messages: [...messages, ...messages] })
    expect(lines[1]?.body).toBeNull()
    expect(lines[3]?.resource).toEqual({ server: 'S', uri: 'note://one' })
    expect(model.lastSeq).toBe(8)
  })

  it('puts a log message on its call card and any other on a line of its own, toned by level', () => {
    const model = new TranscriptModel()
    const log = (
      level: 'debug' | 'info' | 'warning' | 'critical',
      data: unknown,
      callId: string | null,
    ): TranscriptEventBody => ({
      type: 'server.log',
      server: 'S',
      level,
      logger: 'db',
      data,
      callId,
    })
    model.apply(
      events(
        requested('a'),
        log('warning', 'slow query <b>', 'a'),
        log('critical', { disk: 'full' }, null),
        log('debug', 'x'.repeat(2000), 'unknown-call'),
        { ...log('info', 'plain', null), logger: null } as TranscriptEventBody,
      ),
    )
    const [call, ...lines] = model.rows as [CallRow, ...EventLineRow[]]
    expect(call.logs).toEqual([
      {
        seq: 2,
        time: '2026-01-01T00:00:00.000Z',
        level: 'warning',
        tone: 'warning',
        text: 'log warning (db): slow query <b>',
      },
    ])
    expect(lines.map((line) => [line.tone, line.text.slice(0, 40)])).toEqual([
      ['error', 'S log critical (db): {"disk":"full"}'],
      ['dim', `S log debug (db): ${'x'.repeat(22)}`],
      ['info', 'S log info: plain'],
    ])
    expect(lines[1]?.text.endsWith('x…')).toBe(true)
    expect(lines[1]?.text.length).toBeLessThan(600)
  })

  it('handles every transcript event type, so none is silently left out', () => {
    const model = new TranscriptModel()
    const [task, unknown] = events({ type: 'call.task', callId: 'a', taskId: 't' }, {
      type: 'call.unknown',
    } as unknown as TranscriptEventBody)
    model.apply([task as TranscriptEvent])
    expect(model.rows).toEqual([])
    // A type the tab does not know yet is shown by its name rather than dropped.
    model.apply([unknown as TranscriptEvent])
    expect(model.rows.map((row) => (row as EventLineRow).text)).toEqual(['event call.unknown'])
  })
})
