// What a pane needs from the shell: the daemon's REST API with the tab's token, who is asking, the
// session shown and its events, and one server's live feeds (its protocol trace, its stderr and MCP
// log messages).

import type {
  ServerLogLine,
  TraceEntry,
  TranscriptEvent,
} from '../../../daemon/src/protocol/index.js'
import type { ServerFeed } from '../stream.js'

export interface ServerFeedListener {
  trace?(entry: TraceEntry): void
  log?(line: ServerLogLine): void
  /** The stream came back after a drop: what passed meanwhile must be read again. */
  resumed?(): void
}

export interface PaneClient {
  /** A REST call under `/api`; rejects with the daemon's message. */
  request<T>(path: string, method?: string, body?: unknown): Promise<T>
  /** Who asks, as the transcript names it: this tab. */
  readonly identity: { kind: 'webshell'; label: string }
  /** The session the tab shows: gets and reads are recorded in its transcript. */
  session(): string | undefined
  /** Hands `listener` the shown session's new transcript events until the returned function is called. */
  onEvents(listener: (events: readonly TranscriptEvent[]) => void): () => void
  /**
   * Calls `listener` each time the stream is live again after a drop (what passed meanwhile may
   * have reached the transcript as a snapshot, not as events), until the returned function is called.
   */
  onResumed(listener: () => void): () => void
  /** Follows `feeds` of `server` until the returned function is called (again after reconnects). */
  follow(server: string, feeds: ServerFeed[], listener: ServerFeedListener): () => void
}

/** `/servers/{name}` with the name escaped, for the per-server routes. */
export function serverPath(server: string, rest: string): string {
  return `/servers/${encodeURIComponent(server)}${rest}`
}
