// The WebSocket stream at `/api/stream`: what clients may send and what the daemon pushes.
// Browser-safe: types and constants only.

import type { AppCloseCommand, AppOpenCommand, AppRequestCommand } from './apps.js'
import type { ClientKind, ConfirmationOutcome, TranscriptEvent } from './events.js'
import type { InputAnswer } from './inputs.js'
import type {
  FollowServerCommand,
  ServerLogLine,
  TraceEntry,
  UnfollowServerCommand,
} from './observe.js'

/** Offered in `Sec-WebSocket-Protocol` together with `ferry.auth.<token>`; the only one echoed. */
export const STREAM_PROTOCOL = 'ferry.v1'
export const STREAM_AUTH_PREFIX = 'ferry.auth.'
/** Close codes beyond the standard ones. */
export const CLOSE_TOO_SLOW = 4008
export const CLOSE_SHUTTING_DOWN = 4001

export type StreamCommand =
  | { type: 'hello'; client: { kind: ClientKind; label: string }; readOnly?: boolean }
  | { type: 'subscribe'; session?: string; afterSeq?: number }
  | {
      type: 'call'
      ref: string
      tool: string
      arguments?: Record<string, unknown>
      timeoutMs?: number
      id?: string
    }
  | { type: 'cancel'; ref: string; callId: string }
  | { type: 'answer'; ref: string; callId: string; outcome: ConfirmationOutcome }
  /** Answers an open `input.requested`; the reply is an error naming the field that does not fit. */
  | ({ type: 'answer_input'; ref: string; inputId: string } & InputAnswer)
  /** See followServerSchema: a server's trace and log lines, outside any session. */
  | FollowServerCommand
  | UnfollowServerCommand
  /** See protocol/apps.ts: a live MCP App in a tab, and what it asks. */
  | AppOpenCommand
  | AppCloseCommand
  | AppRequestCommand

export type StreamMessage =
  | { type: 'welcome'; clientId: string }
  | { type: 'subscribed'; session: string; headSeq: number; afterSeq: number }
  | { type: 'event'; session: string; event: TranscriptEvent }
  /** The requested point was compacted away: here is the whole compacted history instead. */
  | { type: 'snapshot'; session: string; reason: string; events: TranscriptEvent[] }
  /** `appId` answers `app_open`; `result` answers `app_request` (what goes back to the App). */
  | { type: 'reply'; ref: string; ok: true; callId?: string; appId?: string; result?: unknown }
  | { type: 'reply'; ref: string; ok: false; error: { code: string; message: string } }
  | { type: 'error'; error: { code: string; message: string } }
  /** After `follow_server`: each new trace entry and log line of that server, as it happens. */
  | { type: 'trace'; server: string; entry: TraceEntry }
  | { type: 'server_log'; server: string; line: ServerLogLine }
