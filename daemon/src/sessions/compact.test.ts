import { describe, expect, it } from 'vitest'
import type { TranscriptEvent } from '../protocol/index.js'
import { MAX_KEPT_STRING, compactEvents } from './compact.js'

const base = { time: '2026-01-01T00:00:00.000Z', client: null }

describe('compactEvents', () => {
  it('folds away the progress of finished calls and keeps it for running ones', () => {
    const events = [
      {
        ...base,
        seq: 1,
        type: 'call.requested',
        callId: 'a',
        tool: 't',
        server: 's',
        serverTool: 't',
        arguments: {},
      },
      { ...base, seq: 2, type: 'call.progress', callId: 'a', progress: 1 },
      {
        ...base,
        seq: 3,
        type: 'call.requested',
        callId: 'b',
        tool: 't',
        server: 's',
        serverTool: 't',
        arguments: {},
      },
      { ...base, seq: 4, type: 'call.progress', callId: 'b', progress: 1 },
      {
        ...base,
        seq: 5,
        type: 'call.result',
        callId: 'a',
        result: { content: [] },
        display: { type: 'plain' },
      },
    ] as TranscriptEvent[]
    expect(compactEvents(events).map((event) => event.seq)).toEqual([1, 3, 4, 5])
  })

  it('shortens long strings and binary payloads with a marker', () => {
    const long = 'x'.repeat(MAX_KEPT_STRING + 500)
    const [requested, result] = compactEvents([
      {
        ...base,
        seq: 1,
        type: 'call.requested',
        callId: 'a',
        tool: 't',
        server: 's',
        serverTool: 't',
        arguments: { text: long },
      },
      {
        ...base,
        seq: 2,
        type: 'call.result',
        callId: 'a',
        result: { content: [{ type: 'image', data: 'AAAA'.repeat(100), mimeType: 'image/png' }] },
        display: { type: 'plain' },
      },
    ] as TranscriptEvent[])
    expect((requested as unknown as { arguments: { text: string } }).arguments.text).toBe(
      `${'x'.repeat(MAX_KEPT_STRING)}… [compacted: 500 more characters]`,
    )
    expect(
      (result as unknown as { result: { content: Array<{ data: string; mimeType: string }> } })
        .result.content[0],
    ).toEqual({
      type: 'image',
      data: '[compacted: 400 base64 characters]',
      mimeType: 'image/png',
    })
  })

  it('keeps mcp_app display results as mcp_app with empty html and their fallback text', () => {
    const [event] = compactEvents([
      {
        ...base,
        seq: 1,
        type: 'call.result',
        callId: 'a',
        result: { content: [{ type: 'text', text: 'chart shown' }] },
        display: {
          type: 'mcp_app',
          serverName: 's',
          resourceUri: 'ui://s/chart',
          html: '<html>'.padEnd(50_000, 'x'),
          csp: {},
          permissions: {},
          prefersBorder: true,
          toolInput: {},
          toolResult: {},
          fallbackText: 'A chart of the numbers',
        },
      },
    ] as TranscriptEvent[])
    expect(event).toMatchObject({
      display: {
        type: 'mcp_app',
        html: '',
        fallbackText: 'A chart of the numbers',
        resourceUri: 'ui://s/chart',
      },
    })
  })
})
