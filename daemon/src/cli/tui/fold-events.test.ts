import { describe, expect, it } from 'vitest'
import type { TranscriptEvent, TranscriptEventBody } from '../../protocol/index.js'
import {
  appendEntry,
  foldEvent,
  latestRunningCall,
  MAX_ENTRIES,
  pendingConfirmations,
  type CallEntry,
  type FeedEntry,
} from './fold-events.js'

let seq = 0
function event(body: TranscriptEventBody, label: string | null = null): TranscriptEvent {
  seq++
  const client = label === null ? null : { id: `c${seq}`, kind: 'cli' as const, label }
  return { seq, time: '2026-01-02T03:04:05.000Z', client, ...body } as TranscriptEvent
}

function fold(events: TranscriptEvent[]): FeedEntry[] {
  return events.reduce(foldEvent, [] as FeedEntry[])
}

const requested = (callId: string, tool = 'mcp_fx_slow') =>
  event(
    {
      type: 'call.requested',
      callId,
      tool,
      server: 'fx',
      serverTool: 'slow',
      arguments: { steps: 2 },
    },
    'ferry call (pid 1)',
  )

describe('foldEvent', () => {
  it('folds a call from request through confirmation and progress to its text result', () => {
    const feed = fold([
      requested('a'),
      event({ type: 'confirmation.requested', callId: 'a', tool: 'mcp_fx_slow', server: 'fx' }),
      event({ type: 'confirmation.resolved', callId: 'a', outcome: 'allow_tool' }, 'tab two'),
      event({ type: 'call.progress', callId: 'a', progress: 1, total: 2, message: 'step 1/2' }),
    ])
    expect(feed).toHaveLength(1)
    expect(feed[0]).toMatchObject({
      kind: 'call',
      tool: 'mcp_fx_slow',
      caller: 'ferry call (pid 1)',
      state: 'running',
      confirmation: { outcome: 'allow_tool', by: 'tab two' },
      progress: { progress: 1, total: 2, message: 'step 1/2' },
    })
    const done = foldEvent(
      feed,
      event({
        type: 'call.result',
        callId: 'a',
        result: { content: [{ type: 'text', text: 'done' }] },
        display: { type: 'plain' },
      }),
    )
    expect(done[0]).toMatchObject({ state: 'done', progress: null, output: 'done', note: null })
  })

  it('notes an MCP App or why it was not shown, and never keeps the App HTML', () => {
    const marker = 'APP-HTML-MARKER-5e1f'
    const feed = fold([
      requested('app'),
      event({
        type: 'call.result',
        callId: 'app',
        result: { content: [{ type: 'text', text: 'chart ready' }] },
        display: {
          type: 'mcp_app',
          serverName: 'fx',
          resourceUri: 'ui://fx/chart',
          html: `<p>${marker}</p>`,
          csp: {},
          permissions: {},
          prefersBorder: null,
          toolInput: {},
          toolResult: {},
          fallbackText: 'chart ready',
        },
      }),
      requested('big'),
      event({
        type: 'call.result',
        callId: 'big',
        result: { content: [{ type: 'text', text: 'chart ready' }] },
        display: { type: 'plain', appNotShown: 'App not shown: resource is 1.3 MiB, limit 1 MiB' },
      }),
    ])
    expect(feed.map((entry) => (entry as CallEntry).note)).toEqual([
      'shown as an MCP App in the WebShell',
      'App not shown: resource is 1.3 MiB, limit 1 MiB',
    ])
    expect(JSON.stringify(feed)).not.toContain(marker)
  })

  it('marks tool errors, failures, cancellations and interruptions', () => {
    const feed = fold([
      requested('e'),
      event({
        type: 'call.result',
        callId: 'e',
        result: { isError: true, content: [{ type: 'text', text: 'tool failed on purpose' }] },
        display: { type: 'plain' },
      }),
      requested('f'),
      event({ type: 'call.failed', callId: 'f', error: { code: 'tool_timeout', message: 'slow' } }),
      requested('c'),
      event({ type: 'call.cancelled', callId: 'c' }),
      requested('i'),
      event({ type: 'call.interrupted', callId: 'i' }),
    ]) as CallEntry[]
    expect(feed.map((entry) => [entry.callId, entry.state, entry.output])).toEqual([
      ['e', 'error', 'tool failed on purpose'],
      ['f', 'failed', 'tool_timeout: slow'],
      ['c', 'cancelled', null],
      ['i', 'interrupted', null],
    ])
  })

  it('summarises content that is not text the way `ferry call` prints it', () => {
    const feed = fold([
      requested('r', 'mcp_fx_rich'),
      event({
        type: 'call.result',
        callId: 'r',
        result: { content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }] },
        display: { type: 'plain' },
      }),
    ])
    expect(feed[0]).toMatchObject({ output: '[image image/png, 3 bytes]' })
  })

  it('shows server status changes and notices as lines, failures in red', () => {
    const feed = fold([
      event({ type: 'server.status', server: 'fx', status: 'ready', error: null }),
      event({ type: 'server.status', server: 'fx', status: 'failed', error: 'exited with 7' }),
      event({ type: 'notice', level: 'warning', message: 'recovered 1 call' }),
    ])
    expect(feed).toMatchObject([
      { kind: 'line', tone: 'dim', text: 'server fx ready' },
      { kind: 'line', tone: 'error', text: 'server fx failed: exited with 7' },
      { kind: 'line', tone: 'warning', text: 'recovered 1 call' },
    ])
  })

  it('ignores events of a call it never saw requested', () => {
    const feed = fold([event({ type: 'call.cancelled', callId: 'unknown' })])
    expect(feed).toEqual([])
  })

  it('keeps only the newest entries', () => {
    let feed: FeedEntry[] = []
    for (let i = 0; i < MAX_ENTRIES + 5; i++) {
      feed = appendEntry(feed, { kind: 'line', key: `k${i}`, tone: 'dim', text: String(i) })
    }
    expect(feed).toHaveLength(MAX_ENTRIES)
    expect(feed[0]).toMatchObject({ text: '5' })
  })
})

describe('pendingConfirmations and latestRunningCall', () => {
  it('lists unanswered confirmations oldest first and finds the newest running call', () => {
    const feed = fold([
      requested('one'),
      event({ type: 'confirmation.requested', callId: 'one', tool: 't', server: 'fx' }),
      requested('two'),
      event({ type: 'confirmation.requested', callId: 'two', tool: 't', server: 'fx' }),
      requested('three'),
      event({ type: 'confirmation.requested', callId: 'three', tool: 't', server: 'fx' }),
      event({ type: 'confirmation.resolved', callId: 'two', outcome: 'allow_once' }),
      event({ type: 'call.cancelled', callId: 'three' }),
    ])
    expect(pendingConfirmations(feed).map((call) => call.callId)).toEqual(['one'])
    expect(latestRunningCall(feed)?.callId).toBe('two')
  })
})
