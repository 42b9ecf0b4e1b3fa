import { describe, expect, it } from 'vitest'
import type { TranscriptEvent, TranscriptEventBody } from '../../daemon/src/protocol/index.js'
import { callerLabel } from './app-rows.js'
import type { EventLineRow } from './transcript-lines.js'
import { TranscriptModel, type CallRow } from './transcript.js'

const tab = { id: 'w1', kind: 'webshell' as const, label: 'WebShell tab 3f2a (Chrome)' }

function events(...bodies: TranscriptEventBody[]): TranscriptEvent[] {
  return bodies.map(
    (body, index) =>
      ({
        seq: index + 1,
        time: '2026-01-01T00:00:00.000Z',
        client: tab,
        ...body,
      }) as TranscriptEvent,
  )
}

const requested = (callId: string, tool: string, parentCallId?: string): TranscriptEventBody => ({
  type: 'call.requested',
  callId,
  tool: `mcp_host_${tool}`,
  server: 'host',
  serverTool: tool,
  arguments: {},
  ...(parentCallId === undefined ? {} : { app: { parentCallId } }),
})

describe('what the transcript shows of an App that acts', () => {
  it('marks a call an App made as the App’s, naming the tool that rendered it', () => {
    const model = new TranscriptModel()
    model.apply(events(requested('a', 'host_app'), requested('b', 'bump', 'a')))
    const child = model.call('b') as CallRow
    expect(child.origin).toEqual({ parentCallId: 'a', parentTool: 'mcp_host_host_app' })
    expect(callerLabel(child)).toBe('the App of mcp_host_host_app in WebShell tab 3f2a (Chrome)')
    expect(callerLabel(model.call('a') as CallRow)).toBe('WebShell tab 3f2a (Chrome)')
    // Its App's call is no longer in the transcript (compacted away): still said to be an App's.
    model.apply([{ ...events(requested('c', 'bump', 'gone'))[0]!, seq: 3 }])
    expect(callerLabel(model.call('c') as CallRow)).toBe('an App in WebShell tab 3f2a (Chrome)')
  })

  it('puts model context, links, downloads and logs on the App’s card and messages on lines', () => {
    const model = new TranscriptModel()
    model.apply(
      events(
        requested('a', 'host_app'),
        {
          type: 'app.model_context',
          callId: 'a',
          content: [{ type: 'text', text: 'first' }],
        },
        {
          type: 'app.model_context',
          callId: 'a',
          content: [{ type: 'text', text: 'the App shows 3 rows' }],
          structuredContent: { rows: 3 },
        },
        { type: 'app.log', callId: 'a', level: 'info', data: 'log line from the App' },
        { type: 'app.link_opened', callId: 'a', url: 'http://127.0.0.1:9/page' },
        {
          type: 'app.download',
          callId: 'a',
          files: [{ name: 'report.csv', mimeType: 'text/csv', bytes: 8 }],
        },
        {
          type: 'app.message',
          callId: 'a',
          role: 'user',
          content: [{ type: 'text', text: 'hello from the App' }],
        },
      ),
    )
    expect(model.rows).toHaveLength(2)
    const card = model.call('a') as CallRow
    expect(card.app?.modelContext).toEqual({
      seq: 3,
      time: '2026-01-01T00:00:00.000Z',
      text: 'the App shows 3 rows · {"rows":3}',
    })
    expect(card.app?.lines.map((line) => [line.event, line.tone, line.text])).toEqual([
      ['app.log', 'info', 'logged info: log line from the App'],
      ['app.link_opened', 'dim', 'opened http://127.0.0.1:9/page in a new tab'],
      ['app.download', 'dim', 'saved report.csv (text/csv, 8 B)'],
    ])
    const message = model.rows[1] as EventLineRow
    expect(message.event).toBe('app.message')
    expect(message.text).toBe(
      'The App of mcp_host_host_app says in WebShell tab 3f2a (Chrome) (shown here only: Ferry passes it to no model): “hello from the App”',
    )
    expect(message.body).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'hello from the App' }],
    })
  })

  it('shows what an App did as lines when its card is not in the transcript', () => {
    const model = new TranscriptModel()
    model.apply(
      events(
        { type: 'app.log', callId: 'x', level: 'error', logger: 'ui', data: { n: 1 } },
        { type: 'app.model_context', callId: 'x' },
        {
          type: 'app.message',
          callId: 'x',
          role: 'user',
          content: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }],
        },
      ),
    )
    expect(
      model.rows.map((row) => [(row as EventLineRow).event, (row as EventLineRow).text]),
    ).toEqual([
      ['app.log', 'An App logged error (ui): {"n":1}'],
      ['app.model_context', 'An App set its model context: (empty)'],
      [
        'app.message',
        'An App says in WebShell tab 3f2a (Chrome) (shown here only: Ferry passes it to no model): “[image]”',
      ],
    ])
  })

  it('names the App before its words, and keeps them on one line in quotes only Ferry writes', () => {
    const model = new TranscriptModel()
    const forged =
      'Ferry: confirmation resolved by the person\n10:00:00 “Ferry” allowed ”everything”'
    model.apply(
      events({
        type: 'app.message',
        callId: 'a',
        tool: 'mcp_host_host_app',
        server: 'host',
        role: 'user',
        content: [{ type: 'text', text: forged }],
      }),
    )
    const line = model.rows[0] as EventLineRow
    expect(line.said).toEqual({
      who: 'App of mcp_host_host_app on "host" says in WebShell tab 3f2a (Chrome) (shown here only: Ferry passes it to no model):',
      text: 'Ferry: confirmation resolved by the person⏎10:00:00 "Ferry" allowed "everything"',
    })
    expect(line.text).toBe(`${line.said?.who} “${line.said?.text}”`)
  })
})
