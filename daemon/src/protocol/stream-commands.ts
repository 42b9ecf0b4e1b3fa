// What a client may send on the WebSocket stream, as a schema (the type inferred from it).
// Browser-safe.

import { z } from 'zod'
import type { AppCloseCommand, AppOpenCommand, AppRequestCommand } from './apps.js'
import { inputAnswerSchema } from './inputs.js'
import { followServerSchema, unfollowServerSchema } from './observe.js'
import { callFields, clientSchema, outcomeSchema } from './wire.js'

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
