// The inputs of a session (questions servers asked, in form or URL mode, and sampling requests),
// folded from `input.requested` and `input.resolved`: which are still open, in the order they were
// asked, and how each ended and who answered it.

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
  reply?: { text: string; model: string }
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

/**
 * The open inputs of a session, oldest first. Kept apart from the rows because the dialog shows
 * them wherever the transcript is scrolled, and a resolved one must leave it at once.
 */
export class OpenInputs {
  private readonly open = new Map<string, InputEntry>()
  private readonly listeners = new Set<() => void>()
  /** Bumped on every change, so a batch of events notifies once. */
  version = 0

  apply(entry: InputEntry): void {
    if (entry.resolution === null) this.open.set(entry.inputId, entry)
    else this.open.delete(entry.inputId)
    this.version += 1
  }

  /** Every open input, in the order asked. */
  list(): InputEntry[] {
    return [...this.open.values()].sort((a, b) => a.seq - b.seq)
  }

  notify(): void {
    for (const listener of this.listeners) listener()
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
}
