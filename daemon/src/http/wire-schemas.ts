// Validation for the pieces REST bodies and stream commands share: who the client is, what a
// call asks for, and what an answer says.

import { z } from 'zod'

export const clientSchema = z.object({
  kind: z.enum(['cli', 'attach', 'webshell', 'api']),
  label: z.string().min(1).max(200),
})

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
