// Where a stream client is in one session's transcript, and how it resumes: each event is taken
// once, however often a reconnect replays it; a snapshot (sent when the events after the cursor
// were compacted away) moves the cursor to its last event; a client that lost the stream retries
// after a delay that doubles up to a bound. The CLI and the WebShell both follow these rules.
// Browser-safe.

/** The first reconnect waits this long; each next one twice as long, up to `RETRY_MAX_MS`. */
export const RETRY_FIRST_MS = 250
export const RETRY_MAX_MS = 5_000

/** The wait before reconnect attempt `attempt` (1 for the first). */
export function retryDelay(attempt: number): number {
  return Math.min(RETRY_FIRST_MS * 2 ** Math.max(attempt - 1, 0), RETRY_MAX_MS)
}

export class TranscriptCursor {
  private seq = 0

  /** The last seq taken: the `afterSeq` of the next subscription. */
  get afterSeq(): number {
    return this.seq
  }

  /** True, and the cursor moves past it, for an event not taken before; false for a replay. */
  accept(event: { seq: number }): boolean {
    if (event.seq <= this.seq) return false
    this.seq = event.seq
    return true
  }

  /**
   * A snapshot stands for the whole history: the cursor moves to its last event. Returns the
   * events after the old cursor, for a client that can only add to what it showed.
   */
  snapshot<E extends { seq: number }>(events: readonly E[]): E[] {
    const fresh = events.filter((event) => event.seq > this.seq)
    this.seq = events.at(-1)?.seq ?? this.seq
    return fresh
  }

  /** Another session, or one read again from its start. */
  reset(): void {
    this.seq = 0
  }
}
