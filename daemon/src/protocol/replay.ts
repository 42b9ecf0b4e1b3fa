// Replaying a request of a server's protocol trace (`POST /api/servers/{name}/replay`): the body,
// the params each replayable method takes, and the answer.

import { z } from 'zod'
import type { ReplayableMethod } from './replay-methods.js'
import { clientSchema } from './wire.js'

/**
 * `_meta` is Ferry's own to set (progress tokens, the 2026-07-28 envelope): a replay's is
 * accepted, so a message can be sent back as traced, and replaced by the one Ferry sends.
 */
const meta = { _meta: z.record(z.string(), z.unknown()).optional() }
/** Ferry reads every page of a list itself, so a traced page's cursor is accepted and not sent. */
const listParams = z.strictObject({ cursor: z.string().optional(), ...meta }).optional()

/** What each replayable method takes as `params`; unknown keys are refused, so a typo shows. */
export const replayParamsSchemas = {
  'tools/call': z.strictObject({
    name: z.string().min(1, { error: 'name the tool, as its server lists it' }),
    arguments: z.record(z.string(), z.unknown()).optional(),
    /** Ferry decides whether a call runs as a task, from the tool and the server. */
    task: z.unknown().optional(),
    ...meta,
  }),
  'resources/read': z.strictObject({ uri: z.string().min(1), ...meta }),
  'prompts/get': z.strictObject({
    name: z.string().min(1, { error: 'name the prompt, as its server lists it' }),
    arguments: z
      .record(z.string(), z.string({ error: 'a prompt argument is a string' }))
      .optional(),
    ...meta,
  }),
  'completion/complete': z.strictObject({
    ref: z.discriminatedUnion('type', [
      z.object({ type: z.literal('ref/prompt'), name: z.string().min(1) }),
      z.object({ type: z.literal('ref/resource'), uri: z.string().min(1) }),
    ]),
    argument: z.object({ name: z.string().min(1), value: z.string() }),
    context: z.object({ arguments: z.record(z.string(), z.string()) }).optional(),
    ...meta,
  }),
  'tools/list': listParams,
  'prompts/list': listParams,
  'resources/list': listParams,
  'resources/templates/list': listParams,
  ping: z.strictObject(meta).optional(),
} satisfies Record<ReplayableMethod, z.ZodType>

export type ReplayParams<M extends ReplayableMethod> = z.infer<(typeof replayParamsSchemas)[M]>

/**
 * Body of `POST /api/servers/{name}/replay`: the request at `seq` in the server's trace sent
 * again, with `params` instead of the traced ones when given. Calls, gets and reads are recorded
 * in `session` (the workspace's default unless one is named).
 */
export const replayRequestSchema = z.object({
  seq: z.int({ error: 'seq: expected the seq of a request in the server’s trace' }).min(1),
  params: z.unknown().optional(),
  session: z.string().min(1).optional(),
  client: clientSchema.optional(),
})
export type ReplayRequest = z.infer<typeof replayRequestSchema>

/** Answer of `POST /api/servers/{name}/replay`. */
export interface ReplayResponse {
  server: string
  /** The seq of the traced request that was replayed. */
  seq: number
  method: ReplayableMethod
  /** The session a call, get or read was recorded in; null for the rest. */
  session: string | null
  /** The call's id, for a `tools/call`. */
  callId: string | null
  /** The result as the same request from any client gets it (a call's result, a read's contents). */
  result: unknown
}
