// One input of a session (a question a server asked, in form or URL mode, or a sampling request),
// folded from `input.requested` and `input.resolved`: what was asked, and how it ended and who
// answered it.

import type {
  ClientRef,
  InputAction,
  InputRequestedEvent,
  InputResolvedEvent,
  TranscriptEvent,
} from '../../../daemon/src/protocol/index.js'

export interface InputResolution {
  action: InputAction
  /** Who answered; null when Ferry ended it (nobody could answer, the call ended). */
  by: ClientRef | null
  reason?: string
  content?: Record<string, unknown>
  reply?: InputResolvedEvent['reply']
}

export interface InputEntry {
  inputId: string
  seq: number
  time: string
  callId: string | null
  server: string
  kind: InputRequestedEvent['kind']
  message: string
  requestedSchema?: Record<string, unknown>
  url?: string
  urlOrigin?: string
  sampling?: InputRequestedEvent['sampling']
  /** Null while the input is open. */
  resolution: InputResolution | null
}

type Requested = TranscriptEvent & InputRequestedEvent
type Resolved = TranscriptEvent & InputResolvedEvent

export function entryOf(event: Requested): InputEntry {
  return {
    inputId: event.inputId,
    seq: event.seq,
    time: event.time,
    callId: event.callId,
    server: event.server,
    kind: event.kind,
    message: event.message,
    ...(event.requestedSchema === undefined ? {} : { requestedSchema: event.requestedSchema }),
    ...(event.url === undefined ? {} : { url: event.url }),
    ...(event.urlOrigin === undefined ? {} : { urlOrigin: event.urlOrigin }),
    ...(event.sampling === undefined ? {} : { sampling: event.sampling }),
    resolution: null,
  }
}

export function resolve(entry: InputEntry, event: Resolved): InputEntry {
  return {
    ...entry,
    resolution: {
      action: event.action,
      by: event.client,
      ...(event.reason === undefined ? {} : { reason: event.reason }),
      ...(event.content === undefined ? {} : { content: event.content }),
      ...(event.reply === undefined ? {} : { reply: event.reply }),
    },
  }
}

/** What the transcript says of an ended input: `accepted by ferry call on tty …`. */
export function resolutionText(resolution: InputResolution): string {
  const verb =
    resolution.action === 'accept'
      ? 'Answered'
      : resolution.action === 'decline'
        ? 'Declined'
        : 'Cancelled'
  const who = resolution.by === null ? 'Ferry' : resolution.by.label
  return `${verb} by ${who}${resolution.reason === undefined ? '' : `: ${resolution.reason}`}`
}
