// The WebSocket stream at `/api/stream`: what clients may send and what the daemon pushes.
// Browser-safe, and free of zod: types and constants only (the commands' schema is in
// stream-commands.ts).

import type { WireError } from './errors.js'
import type { TranscriptEvent } from './events.js'
import type { ServerLogLine, TraceEntry } from './observe.js'

/** Offered in `Sec-WebSocket-Protocol` together with `ferry.auth.<token>`; the only one echoed. */
export const STREAM_PROTOCOL = 'ferry.v1'
export const STREAM_AUTH_PREFIX = 'ferry.auth.'
/** Close codes beyond the standard ones. */
export const CLOSE_TOO_SLOW = 4008
export const CLOSE_SHUTTING_DOWN = 4001

export type { StreamCommand } from './stream-commands.js'

export type StreamMessage =
  | { type: 'welcome'; clientId: string }
  | { type: 'subscribed'; session: string; headSeq: number; afterSeq: number }
  | { type: 'event'; session: string; event: TranscriptEvent }
  /** The requested point was compacted away: here is the whole compacted history instead. */
  | { type: 'snapshot'; session: string; reason: string; events: TranscriptEvent[] }
  /** `appId` answers `app_open`; `result` answers `app_request` (what goes back to the App). */
  | { type: 'reply'; ref: string; ok: true; callId?: string; appId?: string; result?: unknown }
  | { type: 'reply'; ref: string; ok: false; error: WireError }
  | { type: 'error'; error: WireError }
  /** After `follow_server`: each new trace entry and log line of that server, as it happens. */
  | { type: 'trace'; server: string; entry: TraceEntry }
  | { type: 'server_log'; server: string; line: ServerLogLine }
