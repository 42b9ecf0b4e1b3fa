// One server question as Ferry records and checks it: the `input.requested` event it becomes, and
// an answer checked against what was asked (a form's schema, with defaults for fields left out; a
// sampling reply's shape) and turned into what the server receives and what the transcript keeps
// (masked fields redacted).

import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitResult,
} from '@modelcontextprotocol/client'
import { ErrorCode, FerryError } from '../errors.js'
import type { ElicitQuestion, UrlQuestion } from '../mcp/call-asker.js'
import {
  samplingReplySchema,
  type InputAnswer,
  type InputRequestedEvent,
  type InputResolvedEvent,
} from '../protocol/index.js'
import type { SchemaValidator } from '../tools/schema-validator.js'

export type InputQuestion =
  | ({ kind: 'form' } & ElicitQuestion)
  | ({ kind: 'url' } & UrlQuestion)
  | { kind: 'sampling'; params: CreateMessageRequestParams }

/** What a masked field's value is stored as. */
export const REDACTED = '[redacted]'

/** The model name a person's sampling reply is sent under unless they name one. */
export const HUMAN_MODEL = 'human'

/** The stop reason a person's sampling reply is sent with unless they give one. */
export const DEFAULT_STOP_REASON = 'endTurn'

type Properties = Record<string, Record<string, unknown>>

function propertiesOf(schema: ElicitQuestion['requestedSchema']): Properties {
  const properties = (schema as { properties?: unknown }).properties
  return typeof properties === 'object' && properties !== null ? (properties as Properties) : {}
}

function defaultsOf(fields: Properties): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(fields).flatMap(([key, property]) =>
      property.default === undefined ? [] : [[key, property.default]],
    ),
  )
}

/** Fields a server asked to have masked (`format: password`): never stored in the transcript. */
function maskedFields(schema: ElicitQuestion['requestedSchema']): Set<string> {
  const masked = new Set<string>()
  for (const [key, property] of Object.entries(propertiesOf(schema))) {
    if (property.format === 'password') masked.add(key)
  }
  return masked
}

/** The schema as recorded: a masked field's default is not kept either. */
function recordedSchema(schema: ElicitQuestion['requestedSchema']): Record<string, unknown> {
  const masked = maskedFields(schema)
  if (masked.size === 0) return schema as Record<string, unknown>
  const properties = Object.fromEntries(
    Object.entries(propertiesOf(schema)).map(([key, property]) => {
      if (!masked.has(key) || property.default === undefined) return [key, property]
      return [key, { ...property, default: REDACTED }]
    }),
  )
  return { ...schema, properties }
}

function summary(params: CreateMessageRequestParams): string {
  const count = params.messages.length
  const limit = typeof params.maxTokens === 'number' ? `, at most ${params.maxTokens} tokens` : ''
  return `asks for a model reply to ${count} message${count === 1 ? '' : 's'}${limit}`
}

/** The `input.requested` event of a question; throws (BadRequest) for a URL that is no web page. */
export function requestedEvent(
  inputId: string,
  callId: string | null,
  server: string,
  question: InputQuestion,
): InputRequestedEvent {
  const base = { type: 'input.requested' as const, inputId, callId, server, kind: question.kind }
  switch (question.kind) {
    case 'form':
      return {
        ...base,
        message: question.message,
        requestedSchema: recordedSchema(question.requestedSchema),
      }
    case 'url': {
      let url: URL
      try {
        url = new URL(question.url)
      } catch {
        throw new FerryError(ErrorCode.BadRequest, 'the URL it asks to open is not a valid URL')
      }
      // Only a web page is offered to open: never script, data or local files.
      if (url.protocol !== 'https:' && url.protocol !== 'http:') {
        throw new FerryError(
          ErrorCode.BadRequest,
          `the URL it asks to open is a ${url.protocol} URL; Ferry offers only http(s) pages to open`,
        )
      }
      return { ...base, message: question.message, url: question.url, urlOrigin: url.origin }
    }
    case 'sampling': {
      const p = question.params
      return {
        ...base,
        message: summary(p),
        sampling: {
          messages: p.messages as unknown as Record<string, unknown>[],
          ...(p.systemPrompt === undefined ? {} : { systemPrompt: p.systemPrompt }),
          ...(p.modelPreferences === undefined
            ? {}
            : { modelPreferences: p.modelPreferences as Record<string, unknown> }),
          maxTokens: p.maxTokens,
          ...(p.temperature === undefined ? {} : { temperature: p.temperature }),
          ...(p.stopSequences === undefined ? {} : { stopSequences: p.stopSequences }),
          ...(p.includeContext === undefined ? {} : { includeContext: p.includeContext }),
        },
      }
    }
  }
}

/** An accepted answer: what the server receives, and what the transcript records of it. */
export interface CheckedAnswer {
  result: ElicitResult | CreateMessageResult
  recorded: Pick<InputResolvedEvent, 'content' | 'reply'>
}

function refuse(message: string): never {
  throw new FerryError(ErrorCode.InvalidInputAnswer, message)
}

/**
 * Checks an `accept` against the question, before anything reaches the server; refuses
 * (`invalid_input_answer`) naming the field that does not fit.
 */
export function checkAccept(
  question: InputQuestion,
  answer: InputAnswer,
  validator: SchemaValidator,
  server: string,
): CheckedAnswer {
  const content = answer.content
  switch (question.kind) {
    case 'url':
      if (content !== undefined && Object.keys(content).length > 0) {
        refuse('content: a URL question is accepted without content; leave it out')
      }
      return { result: { action: 'accept' }, recorded: {} }
    case 'sampling': {
      const parsed = samplingReplySchema.safeParse(content ?? {})
      if (!parsed.success) {
        const issue = parsed.error.issues[0]
        const path = ['content', ...(issue?.path ?? []).map(String)].join('/')
        refuse(
          `${path}: ${issue?.message ?? 'invalid'}; a reply is { "text": "…", "model"?: "…", "stopReason"?: "…" }`,
        )
      }
      const { text, model = HUMAN_MODEL, stopReason = DEFAULT_STOP_REASON } = parsed.data
      return {
        result: { role: 'assistant', content: { type: 'text', text }, model, stopReason },
        recorded: { reply: { text, model, stopReason } },
      }
    }
    case 'form': {
      const fields = propertiesOf(question.requestedSchema)
      // A field left out takes the default the server gave it (SEP-1034), checked like the rest.
      const values = { ...defaultsOf(fields), ...content }
      const unknown = Object.keys(values).find((key) => !(key in fields))
      if (unknown !== undefined) {
        refuse(`content/${unknown}: the form has no field "${unknown}"`)
      }
      const problem = validator.checkOf(question.requestedSchema, server)(values)
      if (problem !== undefined) refuse(problem)
      const masked = maskedFields(question.requestedSchema)
      const stored = Object.fromEntries(
        Object.entries(values).map(([key, value]) => [key, masked.has(key) ? REDACTED : value]),
      )
      return {
        result: { action: 'accept', content: values as ElicitResult['content'] },
        recorded: { content: stored },
      }
    }
  }
}
