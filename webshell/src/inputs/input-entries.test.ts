// How inputs fold into the transcript: on their call's card or a line of their own, open until
// resolved, and who answered.

import { describe, expect, it } from 'vitest'
import type { TranscriptEvent, TranscriptEventBody } from '../../../daemon/src/protocol/index.js'
import { TranscriptModel, type CallRow, type InputRow } from '../transcript.js'
import { resolutionText } from './input-entries.js'

const tab = { id: 'w1', kind: 'webshell' as const, label: 'WebShell tab 3f2a (Chrome)' }

function events(start: number, ...bodies: TranscriptEventBody[]): TranscriptEvent[] {
  return bodies.map(
    (body, index) =>
      ({
        seq: start + index,
        time: '2026-01-01T00:00:00.000Z',
        client: body.type === 'input.resolved' && body.reason === undefined ? tab : null,
        ...body,
      }) as TranscriptEvent,
  )
}

const call: TranscriptEventBody = {
  type: 'call.requested',
  callId: 'c1',
  tool: 'mcp_everything_trigger-elicitation-request',
  server: 'everything',
  serverTool: 'trigger-elicitation-request',
  arguments: {},
}

const asked = (inputId: string, callId: string | null): TranscriptEventBody => ({
  type: 'input.requested',
  inputId,
  callId,
  server: 'everything',
  kind: 'form',
  message: 'Your name?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
})

describe('inputs in the transcript', () => {
  it('puts an input on its call’s card and keeps it open until resolved', () => {
    const model = new TranscriptModel()
    model.apply(events(1, call, asked('i1', 'c1')))
    expect(model.rows).toHaveLength(1)
    expect((model.rows[0] as CallRow).inputs.map((input) => input.inputId)).toEqual(['i1'])
    expect(model.openQuestions().map((question) => question.id)).toEqual(['input:i1'])

    model.apply(
      events(3, {
        type: 'input.resolved',
        inputId: 'i1',
        action: 'accept',
        content: { name: 'Ada' },
      }),
    )
    expect(model.openQuestions()).toEqual([])
    const [input] = (model.rows[0] as CallRow).inputs
    expect(model.input('i1')).toBe(input)
    expect(input?.resolution).toEqual({ action: 'accept', by: tab, content: { name: 'Ada' } })
  })

  it('gives an input outside any known call a line of its own, and lists open inputs oldest first', () => {
    const model = new TranscriptModel()
    model.apply(events(1, asked('late', null), call, asked('early-call', 'c1')))
    expect(model.rows.map((row) => row.kind)).toEqual(['input', 'call'])
    expect((model.rows[0] as InputRow).input.inputId).toBe('late')
    expect(model.openQuestions().map((question) => question.id)).toEqual([
      'input:late',
      'input:early-call',
    ])
    model.apply(
      events(4, {
        type: 'input.resolved',
        inputId: 'late',
        action: 'cancel',
        reason: 'the call ended',
      }),
    )
    const line = model.rows[0] as InputRow
    expect(line.input.resolution && resolutionText(line.input.resolution)).toBe(
      'Cancelled by Ferry: the call ended',
    )
    expect(model.openQuestions().map((question) => question.id)).toEqual(['input:early-call'])
  })
})
