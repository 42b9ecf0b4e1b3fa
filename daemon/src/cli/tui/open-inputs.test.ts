import { describe, expect, it } from 'vitest'
import type { TranscriptEvent, TranscriptEventBody } from '../../protocol/index.js'
import { foldInputs } from './open-inputs.js'

let seq = 0
const event = (body: TranscriptEventBody) =>
  ({ seq: ++seq, time: '2026-01-02T03:04:05.000Z', client: null, ...body }) as TranscriptEvent

const asked = (inputId: string, callId: string | null = 'c1') =>
  event({ type: 'input.requested', inputId, callId, server: 'fx', kind: 'form', message: 'Name?' })

describe('foldInputs', () => {
  it('keeps questions open until resolved, oldest first, each once', () => {
    const events = [
      asked('i1'),
      asked('i2', null),
      asked('i1'),
      event({ type: 'input.resolved', inputId: 'i1', action: 'accept' }),
      asked('i3'),
    ]
    expect(events.reduce(foldInputs, []).map((input) => input.inputId)).toEqual(['i2', 'i3'])
  })

  it('drops the questions of a call that ended', () => {
    const events = [
      asked('i1', 'c1'),
      asked('i2', 'c2'),
      event({ type: 'call.cancelled', callId: 'c1' }),
    ]
    expect(events.reduce(foldInputs, []).map((input) => input.inputId)).toEqual(['i2'])
  })
})
