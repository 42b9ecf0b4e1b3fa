// What a legacy gateway session has sent on its SSE streams, kept so a client whose stream broke
// can resume it (`Last-Event-ID`): the MCP SDK's event store for one session's transport, which
// then opens each stream with a priming event and a `retry` hint. Bounded by count and bytes: the
// oldest events go first, and a resume from one of them is refused (the client starts over).

import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server'

/** Events a session keeps at most. */
export const SESSION_EVENTS_KEPT = 1_000
/** Bytes (of serialised messages) a session keeps at most. */
export const SESSION_EVENT_BYTES = 4 * 1024 * 1024
/** How long a client waits before it reconnects a broken stream (the SSE `retry` field). */
export const SESSION_RETRY_MS = 1_000

interface Kept {
  streamId: string
  message: JSONRPCMessage
  bytes: number
}

export class SessionEvents implements EventStore {
  private readonly events = new Map<string, Kept>()
  private bytes = 0
  private next = 0

  constructor(
    private readonly maxEvents = SESSION_EVENTS_KEPT,
    private readonly maxBytes = SESSION_EVENT_BYTES,
  ) {}

  storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const eventId = `${streamId}:${this.next++}`
    const bytes = JSON.stringify(message).length
    this.events.set(eventId, { streamId, message, bytes })
    this.bytes += bytes
    for (const [oldest, kept] of this.events) {
      if (this.events.size <= this.maxEvents && this.bytes <= this.maxBytes) break
      // The event just stored stays, however large: its stream is live.
      if (oldest === eventId) break
      this.events.delete(oldest)
      this.bytes -= kept.bytes
    }
    return Promise.resolve(eventId)
  }

  getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return Promise.resolve(this.events.get(eventId)?.streamId)
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const last = this.events.get(lastEventId)
    if (last === undefined) throw new Error(`no event ${lastEventId} is kept to resume after`)
    let after = false
    for (const [eventId, kept] of [...this.events]) {
      // A stream's priming event carries no message.
      if (after && kept.streamId === last.streamId && 'jsonrpc' in kept.message) {
        await send(eventId, kept.message)
      }
      if (eventId === lastEventId) after = true
    }
    return last.streamId
  }
}
