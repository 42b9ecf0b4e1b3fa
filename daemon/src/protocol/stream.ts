// The WebSocket stream at `/api/stream`: what clients may send and what the daemon pushes.
// Browser-safe: schemas, types and constants.

import type { WireError } from './errors.js'
import type { AppCloseCommand, AppOpenCommand, AppRequestCommand } from './apps.js'
import { z } from 'zod'
import type { TranscriptEvent } from './events.js'
import { inputAnswerSchema } from './inputs.js'
import {
  followServerSchema,
  unfollowServerSchema,
  type ServerLogLine,
  type TraceEntry,
} from './observe.js'
import { callFields, clientSchema, outcomeSchema } from './wire.js'

/** Offered in `Sec-WebSocket-Protocol` together with `ferry.auth.<token>`; the only one echoed. */
export const STREAM_PROTOCOL = 'ferry.v1'
export const STREAM_AUTH_PREFIX = 'ferry.auth.'
/** Close codes beyond the standard ones. */
export const CLOSE_TOO_SLOW = 4008
export const CLOSE_SHUTTING_DOWN = 4001

/** What a client may send, but an App's commands (see protocol/apps.ts). */
export const streamCommandSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('hello'),
    client: clientSchema,
    readOnly: z.boolean().optional(),
  }),
  z.object({
    type: z.literal('subscribe'),
    session: z.string().min(1).optional(),
    afterSeq: z.number().int().min(0).optional(),
  }),
  z.object({
    type: z.literal('call'),
    ref: z.string().min(1).max(100),
    ...callFields,
  }),
  z.object({
    type: z.literal('cancel'),
    ref: z.string().min(1).max(100),
    callId: z.string().min(1),
  }),
  z.object({
    type: z.literal('answer'),
    ref: z.string().min(1).max(100),
    callId: z.string().min(1),
    outcome: outcomeSchema,
  }),
  followServerSchema,
  unfollowServerSchema,
  inputAnswerSchema.extend({
    type: z.literal('answer_input'),
    ref: z.string().min(1).max(100),
    inputId: z.string().min(1),
  }),
])

/** What a client may send on the stream. */
export type StreamCommand =
  | z.infer<typeof streamCommandSchema>
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
  | { type: 'reply'; ref: string; ok: false; error: WireError }
  | { type: 'error'; error: WireError }
  /** After `follow_server`: each new trace entry and log line of that server, as it happens. */
  | { type: 'trace'; server: string; entry: TraceEntry }
  | { type: 'server_log'; server: string; line: ServerLogLine }
