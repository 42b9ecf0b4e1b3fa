// A client's call, whatever its wire: the call gets its id, its answerers are the session's
// attached clients, its own events go to the caller, and the caller's abort cancels it. REST, the
// stream, the gateway and Apps only translate their wire into this.

import type { CallToolResult, TranscriptEvent } from '../protocol/index.js'
import type { CallInput, CallRunner } from './call-runner.js'
import { loopTurns } from '../turns.js'
import type { Session } from './session.js'

/** One call as a client asks for it; the call's id and answerers are the sessions' to manage. */
export interface CallOptions extends Omit<CallInput, 'answerers'> {
  /** The session to call in; the workspace's default if none is named. */
  session?: string | undefined
  /** Aborting it cancels the call as `client`'s cancel, also a call still being set up. */
  signal?: AbortSignal | undefined
  /**
   * Every event of this call from its start on: those naming its call id, and the answers to the
   * questions it asked (`input.resolved`, which names no call).
   */
  onEvent?: ((event: TranscriptEvent) => void) | undefined
  /** Told once the call is registered (and can be cancelled), before any of its events. */
  onStart?: ((started: { callId: string; session: Session }) => void) | undefined
}

export interface CallDone {
  callId: string
  session: Session
  result: CallToolResult
}

export class SessionCalls {
  constructor(
    private readonly runner: CallRunner,
    private readonly resolve: (id: string | undefined) => Promise<Session>,
  ) {}

  /**
   * Runs a call for a client. The call gets an id (the caller's, else a new one), the session's
   * attached answerers are counted when a confirmation is needed, the call's own events go to
   * `onEvent`, and an abort of `signal` cancels it.
   */
  async call(options: CallOptions): Promise<CallDone> {
    const { session: name, signal, onEvent, onStart, ...input } = options
    const session = await this.resolve(name)
    // A burst of calls starts a turn's share at a time, so the events already stored are
    // delivered between them rather than after the last one has started.
    await loopTurns.wait()
    const callId = input.callId ?? this.runner.newCallId()
    const asked = new Set<string>()
    const unsubscribe =
      onEvent === undefined
        ? () => {}
        : session.subscribe(session.info().headSeq, (event) => {
            if (event.type === 'input.resolved') {
              if (asked.delete(event.inputId)) onEvent(event)
              return
            }
            if (!('callId' in event) || event.callId !== callId) return
            if (event.type === 'input.requested') asked.add(event.inputId)
            onEvent(event)
          })
    const cancel = () => {
      try {
        this.runner.cancel(callId, input.client)
      } catch {
        // It ended meanwhile.
      }
    }
    try {
      const running = this.runner.run(session, {
        ...input,
        callId,
        answerers: () => session.answererCount(),
      })
      // The call is registered once `run` returns its promise: from here on it can be cancelled.
      signal?.addEventListener('abort', cancel, { once: true })
      if (signal?.aborted === true) cancel()
      onStart?.({ callId, session })
      const { result } = await running
      return { callId, session, result }
    } finally {
      signal?.removeEventListener('abort', cancel)
      unsubscribe()
    }
  }

  /** A fresh call id, for a caller that must know it before the call starts. */
  newCallId(): string {
    return this.runner.newCallId()
  }
}
