// Validation for the pieces REST bodies and stream commands share: who the client is, what a
// call asks for, and what an answer says.

import { z } from 'zod'
import { MAX_ARGUMENTS_DEPTH, nestsDeeperThan } from '../sessions/event-bounds.js'

export const clientSchema = z.object({
  kind: z.enum(['cli', 'attach', 'webshell', 'api']),
  label: z.string().min(1).max(200),
})

export const outcomeSchema = z.enum(['allow_once', 'allow_tool', 'allow_server', 'deny'])

/** The fields of a tool call, wherever it comes from. */
export const callFields = {
  tool: z.string().min(1),
  arguments: z
    .record(z.string(), z.unknown())
    .refine((value) => !nestsDeeperThan(value, MAX_ARGUMENTS_DEPTH), {
      message: `nested deeper than ${MAX_ARGUMENTS_DEPTH} levels, more than a transcript keeps; send flatter arguments`,
    })
    .optional(),
  timeoutMs: z.number().int().positive().optional(),
  id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .optional(),
}
