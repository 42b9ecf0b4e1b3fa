// The questions of the session still open for an answer, oldest first, and how this terminal's
// answer to each is faring. Pure: folded from transcript events like the feed.

import { isCallEnd, type InputRequestedEvent, type TranscriptEvent } from '../../protocol/index.js'

/** This terminal's answer: on its way, or refused by the daemon with a reason to fix. */
export type AnswerState = { state: 'sending' } | { state: 'refused'; message: string }

/** Open questions after one more event: asked ones join, answered or withdrawn ones leave. */
export function foldInputs(
  inputs: InputRequestedEvent[],
  event: TranscriptEvent,
): InputRequestedEvent[] {
  if (event.type === 'input.requested') {
    if (inputs.some((input) => input.inputId === event.inputId)) return inputs
    return [...inputs, event]
  }
  if (event.type === 'input.resolved') {
    return inputs.some((input) => input.inputId === event.inputId)
      ? inputs.filter((input) => input.inputId !== event.inputId)
      : inputs
  }
  // A call that ended takes its questions with it, should their resolution not be in view.
  if (isCallEnd(event) && inputs.some((input) => input.callId === event.callId)) {
    return inputs.filter((input) => input.callId !== event.callId)
  }
  return inputs
}
