// Prompts, resources, resource templates and completions as the API, the CLI and the WebShell see
// them, and the transcript events that record each get, read and subscription. Zod schemas,
// types inferred; the WebShell imports the types only.

import { z } from 'zod'

/** Bodies stored in a transcript event up to this size; a larger one is recorded by its size only. */
export const OFFERING_BODY_LIMIT = 64 * 1024

export const promptArgumentSchema = z.object({
  name: z.string(),
  description: z.string().nullable(),
  required: z.boolean(),
})

/** One row of `GET /api/prompts` and `ferry prompts --json`. */
export const promptInfoSchema = z.object({
  /** Qualified like tools: `mcp_{server}_{prompt}`, unique, `[A-Za-z0-9_-]`, at most 64 characters. */
  name: z.string(),
  server: z.string(),
  /** The prompt's name as the server declared it. */
  prompt: z.string(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  arguments: z.array(promptArgumentSchema),
})
export type PromptInfo = z.infer<typeof promptInfoSchema>

/** One resource of `GET /api/resources`. */
export const resourceInfoSchema = z.object({
  server: z.string(),
  uri: z.string(),
  name: z.string(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  mimeType: z.string().nullable(),
  size: z.number().nullable(),
})
export type ResourceInfo = z.infer<typeof resourceInfoSchema>

/** One template of `GET /api/resources`; its variables are those of `uriTemplate` (RFC 6570). */
export const resourceTemplateInfoSchema = z.object({
  server: z.string(),
  uriTemplate: z.string(),
  name: z.string(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  mimeType: z.string().nullable(),
})
export type ResourceTemplateInfo = z.infer<typeof resourceTemplateInfoSchema>

/** `GET /api/resources` and `ferry resources --json`. */
export interface ResourcesResponse {
  resources: ResourceInfo[]
  templates: ResourceTemplateInfo[]
}

/** Who asks, for the transcript: as in `POST /api/call`; the REST API when absent. */
const offeringClientSchema = z.object({
  kind: z.enum(['cli', 'attach', 'webshell', 'api']),
  label: z.string().min(1).max(200),
})

/** Body of `POST /api/prompts/get`. */
export const promptGetRequestSchema = z.object({
  name: z.string().min(1),
  arguments: z.record(z.string(), z.string()).optional(),
  session: z.string().min(1).optional(),
  client: offeringClientSchema.optional(),
})
export type PromptGetRequest = z.infer<typeof promptGetRequestSchema>

/** Body of `POST /api/resources/read`, `POST /api/resources/subscribe` and `.../unsubscribe`. */
export const resourceRequestSchema = z.object({
  server: z.string().min(1),
  uri: z.string().min(1),
  session: z.string().min(1).optional(),
  client: offeringClientSchema.optional(),
})
export type ResourceRequest = z.infer<typeof resourceRequestSchema>

/** One message of a got prompt, as the server sent it. */
export interface PromptMessageBody {
  role: 'user' | 'assistant'
  /** A content block: `text`, `image`, `audio`, `resource` or `resource_link`. */
  content: Record<string, unknown> & { type: string }
}

/** Answer of `POST /api/prompts/get`: the prompt and the server's `GetPromptResult` as it came. */
export interface PromptGetResponse {
  session: string
  prompt: PromptInfo
  result: Record<string, unknown> & { description?: string; messages: PromptMessageBody[] }
}

/** One item of a read: text, or a blob in base64. */
export type ResourceContentsBody = Record<string, unknown> & {
  uri: string
  mimeType?: string
  text?: string
  blob?: string
}

/** Answer of `POST /api/resources/read`: the server's `ReadResourceResult` as it came. */
export interface ResourceReadResponse {
  session: string
  server: string
  uri: string
  result: Record<string, unknown> & { contents: ResourceContentsBody[] }
}

/** Answer of `POST /api/resources/subscribe` and `.../unsubscribe`. */
export interface ResourceSubscriptionResponse {
  session: string
  server: string
  uri: string
  /** Whether the session follows the resource now. */
  subscribed: boolean
  /** The seq of the `resource.subscribed` event; null when it followed the resource already (or on unsubscribe). */
  seq: number | null
}

/** Body of `POST /api/completions`: what the person is typing, and the values already given. */
export const completionRequestSchema = z.object({
  server: z.string().min(1),
  ref: z.discriminatedUnion('type', [
    z.object({ type: z.literal('ref/prompt'), name: z.string().min(1) }),
    z.object({ type: z.literal('ref/resource'), uri: z.string().min(1) }),
  ]),
  argument: z.object({ name: z.string().min(1), value: z.string() }),
  context: z.object({ arguments: z.record(z.string(), z.string()) }).optional(),
})
export type CompletionRequest = z.infer<typeof completionRequestSchema>

/** Answer of `POST /api/completions`; empty when the server does not complete. */
export interface CompletionResponse {
  values: string[]
  total: number | null
  hasMore: boolean
}

/** A body as a transcript keeps it: whole up to `OFFERING_BODY_LIMIT`, else only its size. */
export const storedBodySchema = z.union([
  z.object({ kept: z.literal(true), body: z.record(z.string(), z.unknown()) }),
  z.object({ kept: z.literal(false), bytes: z.number() }),
])
export type StoredBody = z.infer<typeof storedBodySchema>

/** `prompt.got`: a prompt was got with these arguments; `result` is the server's `GetPromptResult`. */
export const promptGotSchema = z.object({
  type: z.literal('prompt.got'),
  server: z.string(),
  prompt: z.string(),
  arguments: z.record(z.string(), z.string()),
  result: storedBodySchema,
})

/** `resource.read`: one read; `result` is the server's `ReadResourceResult`. */
export const resourceReadSchema = z.object({
  type: z.literal('resource.read'),
  server: z.string(),
  uri: z.string(),
  result: storedBodySchema,
})

/** A get or read that failed: the error as the API answered it. */
const offeringErrorSchema = z.object({ code: z.string(), message: z.string() })

/** `prompt.failed`: a get that the server refused or that did not finish (timeout, cancel). */
export const promptFailedSchema = z.object({
  type: z.literal('prompt.failed'),
  server: z.string(),
  prompt: z.string(),
  arguments: z.record(z.string(), z.string()),
  error: offeringErrorSchema,
})

/** `resource.read_failed`: a read that failed, timed out or was over the size limit. */
export const resourceReadFailedSchema = z.object({
  type: z.literal('resource.read_failed'),
  server: z.string(),
  uri: z.string(),
  error: offeringErrorSchema,
})

/** `resource.subscribed` / `resource.unsubscribed`: the session follows a resource, or stopped. */
export const resourceSubscribedSchema = z.object({
  type: z.enum(['resource.subscribed', 'resource.unsubscribed']),
  server: z.string(),
  uri: z.string(),
})

/** `resource.updated`: the server said a followed resource changed (read it to see how). */
export const resourceUpdatedSchema = z.object({
  type: z.literal('resource.updated'),
  server: z.string(),
  uri: z.string(),
})

export type OfferingEvent =
  | z.infer<typeof promptGotSchema>
  | z.infer<typeof promptFailedSchema>
  | z.infer<typeof resourceReadSchema>
  | z.infer<typeof resourceReadFailedSchema>
  | z.infer<typeof resourceSubscribedSchema>
  | z.infer<typeof resourceUpdatedSchema>
