// The prompts, resources and resource templates of ready servers as the API, the CLI and the
// gateway list them (prompts under qualified names, given like tool names), and the checks a get or
// read passes before and after it reaches the server: required arguments, the size of what came back.

import type { GetPromptResult, Prompt, ReadResourceResult } from '@modelcontextprotocol/client'
import { APP_HTML_LIMIT_BYTES } from '../apps/app-resource.js'
import { ErrorCode, FerryError } from '../errors.js'
import {
  OFFERING_BODY_LIMIT,
  type PromptInfo,
  type ResourcesResponse,
  type StoredBody,
} from '../protocol/index.js'
import type { Discovered } from '../mcp/discovery.js'
import { qualifyNames } from '../tools/qualified-names.js'

/** What one ready server lists, as it listed it. */
export interface ServerOfferings {
  server: string
  offered: Discovered
}

/** A read answers with at most this much content (text as UTF-8, blobs decoded): an App's limit. */
export const RESOURCE_READ_LIMIT_BYTES = APP_HTML_LIMIT_BYTES

export interface NamedPrompt {
  /** The qualified name, `mcp_{server}_{prompt}`. */
  name: string
  server: string
  prompt: Prompt
}

/** Every ready server's prompts under qualified names, given over all servers as for tools. */
export function qualifiedPrompts(offerings: readonly ServerOfferings[]): NamedPrompt[] {
  const picked = offerings.flatMap(({ server, offered }) => {
    // A server that lists one name twice gets the first.
    const seen = new Set<string>()
    return offered.prompts
      .filter((prompt) => !seen.has(prompt.name) && seen.add(prompt.name))
      .map((prompt) => ({ server, prompt }))
  })
  const names = qualifyNames(picked.map(({ server, prompt }) => ({ server, tool: prompt.name })))
  return picked.map((item, i) => ({ ...item, name: names[i] as string }))
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null
}

export function toPromptInfo({ name, server, prompt }: NamedPrompt): PromptInfo {
  return {
    name,
    server,
    prompt: prompt.name,
    title: text(prompt.title),
    description: text(prompt.description),
    arguments: (prompt.arguments ?? []).map((argument) => ({
      name: argument.name,
      description: text(argument.description),
      required: argument.required === true,
    })),
  }
}

/** The resources and templates of ready servers (of `server` only, when given), in settings order. */
export function resourceInfos(
  offerings: readonly ServerOfferings[],
  server?: string,
): ResourcesResponse {
  const chosen = offerings.filter((entry) => server === undefined || entry.server === server)
  return {
    resources: chosen.flatMap(({ server: name, offered }) =>
      offered.resources.map((resource) => ({
        server: name,
        uri: resource.uri,
        name: resource.name,
        title: text(resource.title),
        description: text(resource.description),
        mimeType: text(resource.mimeType),
        size: typeof resource.size === 'number' ? resource.size : null,
      })),
    ),
    templates: chosen.flatMap(({ server: name, offered }) =>
      offered.resourceTemplates.map((template) => ({
        server: name,
        uriTemplate: template.uriTemplate,
        name: template.name,
        title: text(template.title),
        description: text(template.description),
        mimeType: text(template.mimeType),
      })),
    ),
  }
}

/** Refuses arguments that leave out a required one, or name one the prompt does not take. */
export function checkPromptArguments(
  named: NamedPrompt,
  args: Readonly<Record<string, string>>,
): void {
  const declared = named.prompt.arguments ?? []
  const missing = declared.filter(
    (argument) => argument.required === true && !(argument.name in args),
  )
  if (missing.length > 0) {
    const names = missing.map((argument) => `"${argument.name}"`).join(', ')
    throw new FerryError(
      ErrorCode.BadRequest,
      `${named.name} needs the argument${missing.length > 1 ? 's' : ''} ${names}; it takes ${describeArguments(named.prompt)}`,
    )
  }
  // A prompt that declares no arguments list may still read some: only a declared list is checked.
  const unknown = Object.keys(args).filter((key) => !declared.some((a) => a.name === key))
  if (named.prompt.arguments !== undefined && unknown.length > 0) {
    throw new FerryError(
      ErrorCode.BadRequest,
      `${named.name} takes no argument ${unknown.map((key) => `"${key}"`).join(', ')}; it takes ${describeArguments(named.prompt)}`,
    )
  }
}

function describeArguments(prompt: Prompt): string {
  const declared = prompt.arguments ?? []
  if (declared.length === 0) return 'no arguments'
  return declared.map((a) => `${a.name}${a.required === true ? ' (required)' : ''}`).join(', ')
}

/** The bytes of a read's contents: text as UTF-8, blobs as decoded from base64. */
export function contentBytes(result: ReadResourceResult): number {
  let bytes = 0
  for (const item of result.contents) {
    if ('text' in item && typeof item.text === 'string') bytes += Buffer.byteLength(item.text)
    else if ('blob' in item && typeof item.blob === 'string')
      bytes += Buffer.from(item.blob, 'base64').byteLength
  }
  return bytes
}

/** Refuses a read whose contents are over `RESOURCE_READ_LIMIT_BYTES`. */
export function checkReadSize(server: string, uri: string, result: ReadResourceResult): void {
  const bytes = contentBytes(result)
  if (bytes <= RESOURCE_READ_LIMIT_BYTES) return
  throw new FerryError(
    ErrorCode.PayloadTooLarge,
    `resource ${uri} of server "${server}" is ${mebibytes(bytes)}, over the ${mebibytes(RESOURCE_READ_LIMIT_BYTES)} limit for reads`,
  )
}

function mebibytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`
}

/** A body as a transcript keeps it: whole up to `OFFERING_BODY_LIMIT` bytes of JSON, else its size. */
export function storedBody(body: GetPromptResult | ReadResourceResult): StoredBody {
  const json = JSON.stringify(body)
  const bytes = Buffer.byteLength(json)
  return bytes <= OFFERING_BODY_LIMIT
    ? { kept: true, body: JSON.parse(json) as Record<string, unknown> }
    : { kept: false, bytes }
}
