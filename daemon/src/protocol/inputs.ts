// Inputs: what a server asks of the person during a session (elicitation in form or URL mode, and
// sampling), how it is recorded, and how any client answers it. Zod schemas, types inferred from
// them; the WebShell imports the types only (`import type`), so zod stays out of its bundle.

import { z } from 'zod'

export const inputKindSchema = z.enum(['form', 'url', 'sampling'])
export type InputKind = z.infer<typeof inputKindSchema>

export const inputActionSchema = z.enum(['accept', 'decline', 'cancel'])
export type InputAction = z.infer<typeof inputActionSchema>

/** A sampling request as the server sent it, for a person to answer in the model's place. */
export const samplingRequestSchema = z.object({
  /** The conversation so far, as the server sent it (`role` and `content` per message). */
  messages: z.array(z.record(z.string(), z.unknown())),
  systemPrompt: z.string().optional(),
  modelPreferences: z.record(z.string(), z.unknown()).optional(),
  maxTokens: z.number().optional(),
  temperature: z.number().optional(),
  stopSequences: z.array(z.string()).optional(),
  includeContext: z.string().optional(),
  /** A reply to start from: the text a person most likely wants to edit, never sent unseen. */
  suggestedReply: z.string().optional(),
})
export type SamplingRequest = z.infer<typeof samplingRequestSchema>

/** `input.requested`: a question from a server, open until its `input.resolved`. */
export const inputRequestedSchema = z.object({
  type: z.literal('input.requested'),
  /** `[A-Za-z0-9_-]{1,64}`, unique in the daemon; answers name it. */
  inputId: z.string(),
  /** The call it belongs to; null when the server asked outside any call Ferry can name. */
  callId: z.string().nullable(),
  server: z.string(),
  kind: inputKindSchema,
  /** What the server says it wants (for sampling, a one-line summary of the request). */
  message: z.string(),
  /** `form`: the restricted JSON Schema the answer must fit (flat primitive properties). */
  requestedSchema: z.record(z.string(), z.unknown()).optional(),
  /** `url`: the page to open, and its origin (`scheme://host[:port]`) as the person should see it. */
  url: z.string().optional(),
  urlOrigin: z.string().optional(),
  /** `sampling`: the request to answer. */
  sampling: samplingRequestSchema.optional(),
})
export type InputRequestedEvent = z.infer<typeof inputRequestedSchema>

/**
 * `input.resolved`: how the question ended. The event's client is who answered; null when Ferry
 * ended it (nobody could answer, the call ended, the server withdrew it), with `reason` saying why.
 */
export const inputResolvedSchema = z.object({
  type: z.literal('input.resolved'),
  inputId: z.string(),
  action: inputActionSchema,
  /** `accept` of a form: the content sent to the server (a `format: password` field is redacted). */
  content: z.record(z.string(), z.unknown()).optional(),
  /**
   * `accept` of a sampling request: the reply sent in the model's place, with the model name and
   * stop reason it was sent under (`stopReason` is absent in transcripts written before it was kept).
   */
  reply: z
    .object({ text: z.string(), model: z.string(), stopReason: z.string().optional() })
    .optional(),
  reason: z.string().optional(),
})
export type InputResolvedEvent = z.infer<typeof inputResolvedSchema>

/** MCP's stop reasons; a reply may give another (MCP allows any string). */
export const STOP_REASONS = ['endTurn', 'stopSequence', 'maxTokens'] as const

/**
 * The `content` of a sampling accept: the reply's text, and the model name (default `human`) and
 * stop reason (default `endTurn`) the server receives with it.
 */
export const samplingReplySchema = z.strictObject({
  text: z.string({ error: 'expected the reply text (a string)' }),
  model: z.string().min(1, { error: 'expected a non-empty model name' }).optional(),
  stopReason: z
    .string()
    .min(1, {
      error: `expected a non-empty stop reason (${STOP_REASONS.join(', ')}, or another word)`,
    })
    .optional(),
})
export type SamplingReply = z.infer<typeof samplingReplySchema>

/**
 * Body of `POST /api/inputs/{id}/answer`, and the fields of the stream's `answer_input` command.
 * `content` of a form accept is the form's values; of a sampling accept a `SamplingReply`.
 */
export const inputAnswerSchema = z.object({
  action: inputActionSchema,
  content: z.record(z.string(), z.unknown()).optional(),
})
export type InputAnswer = z.infer<typeof inputAnswerSchema>

/** `409` names who answered first; `422` (`invalid_input_answer`) names the field that does not fit. */
export interface InputAnswerResponse {
  inputId: string
  action: InputAction
}
