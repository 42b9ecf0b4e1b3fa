import { describe, expect, it } from 'vitest'
import type { TranscriptEvent, TranscriptEventBody } from '../../daemon/src/protocol/index.js'
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
})
