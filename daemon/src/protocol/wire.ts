// What REST bodies and stream commands share, as schemas (types inferred from them): who a client
// says it is, what a call asks for, and what a confirmation's answer says. Browser-safe.

import { z } from 'zod'

/**
 * The kinds a client may name itself. `mcp` is not among them: it is the gateway's own name for
 * its clients, each named by its token, never claimed over REST or the stream.
 */
export const clientSchema = z.object({
  kind: z.enum(['cli', 'attach', 'webshell', 'api']),
  label: z.string().min(1).max(200),
})
export type ClientClaim = z.infer<typeof clientSchema>

export const outcomeSchema = z.enum(['allow_once', 'allow_tool', 'allow_server', 'deny'])

/** The fields of a tool call, wherever it comes from. */
export const callFields = {
  tool: z.string().min(1),
  /** Their depth, size and schema are the call path's to check (sessions/argument-check.ts). */
  arguments: z.record(z.string(), z.unknown()).optional(),
  timeoutMs: z.number().int().positive().optional(),
  id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .optional(),
}
