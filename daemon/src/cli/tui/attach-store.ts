// The attach screen's shared state: connection, session, the feed, the open questions and the
// tool names. Components read it through `useSyncExternalStore`; the controller is the only writer.

import type { InputRequestedEvent, TranscriptEvent } from '../../protocol/index.js'
import { appendEntry, foldEvent, type FeedEntry, type LineTone } from './fold-events.js'
import { foldInputs, type AnswerState } from './open-inputs.js'

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting'

export interface AttachState {
  readOnly: boolean
  connection: ConnectionState
  /** Why the stream is down, while it is. */
  connectionDetail: string | null
  session: { id: string; name: string | null } | null
  feed: FeedEntry[]
  /** Qualified tool names for Tab completion. */
  tools: string[]
  /** Calls this terminal has answered; their prompt is gone before the daemon confirms. */
  answered: ReadonlySet<string>
  /** The session's questions still open, oldest first. */
  inputs: InputRequestedEvent[]
  /** This terminal's answers to open questions, by input id. */
  inputAnswers: ReadonlyMap<string, AnswerState>
}

export interface AttachStore {
  get(): AttachState
  subscribe(listener: () => void): () => void
  update(change: (state: AttachState) => AttachState): void
  /** Folds one transcript event into the feed. */
  addEvent(event: TranscriptEvent): void
  /** A line of this terminal's own: a notice, a refusal, an error. */
  say(tone: LineTone, text: string): void
  /** Lines the command `title` printed. */
  print(title: string, lines: string[]): void
}

export function createAttachStore(readOnly: boolean): AttachStore {
  let state: AttachState = {
    readOnly,
    connection: 'connecting',
    connectionDetail: null,
    session: null,
    feed: [],
    tools: [],
    answered: new Set(),
    inputs: [],
    inputAnswers: new Map(),
  }
  const listeners = new Set<() => void>()
  let local = 0
  const update = (change: (current: AttachState) => AttachState) => {
    const next = change(state)
    if (next === state) return
    state = next
    for (const listener of listeners) listener()
  }
  return {
    get: () => state,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    update,
    addEvent: (event) =>
      update((s) => {
        const inputs = foldInputs(s.inputs, event)
        const gone = s.inputs.filter((input) => !inputs.includes(input))
        const inputAnswers = new Map(s.inputAnswers)
        for (const input of gone) inputAnswers.delete(input.inputId)
        return {
          ...s,
          feed: foldEvent(s.feed, event),
          inputs,
          inputAnswers: gone.length === 0 ? s.inputAnswers : inputAnswers,
        }
      }),
    say: (tone, text) =>
      update((s) => ({
        ...s,
        feed: appendEntry(s.feed, { kind: 'line', key: `local-${++local}`, tone, text }),
      })),
    print: (title, lines) =>
      update((s) => ({
        ...s,
        feed: appendEntry(s.feed, { kind: 'output', key: `local-${++local}`, title, lines }),
      })),
  }
}
