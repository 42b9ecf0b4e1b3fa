// ferry prompts | prompt | resources | read | subscribe: thin clients of the daemon's prompt and
// resource routes (and its stream, to follow updates). Text goes to the terminal (made visible, as
// everything is); blobs go to a file.

import { writeFile } from 'node:fs/promises'
import { ErrorCode, FerryError } from '../errors.js'
import type {
  PromptGetResponse,
  PromptInfo,
  ResourceContentsBody,
  ResourceReadResponse,
  ResourceSubscriptionResponse,
  ResourcesResponse,
  SessionInfo,
} from '../protocol/index.js'
import { parseCallArgs } from './call-args.js'
import type { CliContext } from './context.js'
import { connectDaemon } from './daemon-client.js'
import { describeBlock, table } from './format.js'
import { StreamClient } from './stream-client.js'
import { jsonText } from './terminal-text.js'

function cliClient(command: string) {
  return { kind: 'cli' as const, label: `ferry ${command} (pid ${process.pid})` }
}

function serverQuery(server: string | undefined): string {
  return server === undefined ? '' : `?${new URLSearchParams({ server })}`
}

function firstLine(text: string | null): string {
  return (text ?? '').split('\n')[0]?.slice(0, 80) ?? ''
}

export function formatPrompts(prompts: PromptInfo[]): string {
  if (prompts.length === 0) return 'No prompts available.'
  const rows = [['NAME', 'SERVER', 'ARGUMENTS', 'DESCRIPTION']]
  for (const p of prompts) {
    const args = p.arguments.map((a) => `${a.name}${a.required ? '*' : ''}`).join(',')
    rows.push([p.name, p.server, args || '-', firstLine(p.title ?? p.description)])
  }
  const anyRequired = prompts.some((p) => p.arguments.some((a) => a.required))
  return `${table(rows)}${anyRequired ? '\n* required' : ''}`
}

export function formatResources(list: ResourcesResponse): string {
  const parts: string[] = []
  if (list.resources.length === 0) parts.push('No resources available.')
  else {
    const rows = [['URI', 'SERVER', 'TYPE', 'NAME']]
    for (const r of list.resources)
      rows.push([r.uri, r.server, r.mimeType ?? '-', r.title ?? r.name])
    parts.push(table(rows))
  }
  if (list.templates.length > 0) {
    const rows = [['TEMPLATE', 'SERVER', 'TYPE', 'NAME']]
    for (const t of list.templates)
      rows.push([t.uriTemplate, t.server, t.mimeType ?? '-', t.title ?? t.name])
    parts.push(table(rows))
  }
  return parts.join('\n\n')
}

/** Prompt arguments are strings; numbers and booleans are taken as their text. */
export function parsePromptArgs(raw: string | undefined): Record<string, string> {
  const parsed = parseCallArgs(raw, '{"city":"Paris"}')
  const args: Record<string, string> = {}
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value === 'string') args[key] = value
    else if (typeof value === 'number' || typeof value === 'boolean') args[key] = String(value)
    else {
      throw new FerryError(
        ErrorCode.BadRequest,
        `prompt arguments are text; "${key}" is ${value === null ? 'null' : Array.isArray(value) ? 'an array' : 'an object'}`,
      )
    }
  }
  return args
}

export async function prompts(
  ctx: CliContext,
  options: { server?: string; json?: boolean },
): Promise<number> {
  const client = await connectDaemon(ctx.stateDir)
  const list = await client.get<PromptInfo[]>(`/prompts${serverQuery(options.server)}`)
  ctx.out(options.json === true ? jsonText(list, 2) : formatPrompts(list))
  return 0
}

export function formatMessages(result: PromptGetResponse['result']): string {
  const parts: string[] = []
  if (typeof result.description === 'string' && result.description !== '') {
    parts.push(`# ${result.description}`)
  }
  for (const message of result.messages) {
    parts.push(`[${message.role}]\n${describeBlock(message.content)}`)
  }
  return parts.join('\n\n')
}

export async function prompt(
  ctx: CliContext,
  name: string,
  rawArgs: string | undefined,
  options: { json?: boolean; session?: string },
): Promise<number> {
  const args = parsePromptArgs(rawArgs)
  const client = await connectDaemon(ctx.stateDir)
  const got = await client.post<PromptGetResponse>('/prompts/get', {
    name,
    arguments: args,
    client: cliClient('prompt'),
    ...(options.session === undefined ? {} : { session: options.session }),
  })
  ctx.out(options.json === true ? jsonText(got.result, 2) : formatMessages(got.result))
  return 0
}

export async function resources(
  ctx: CliContext,
  options: { server?: string; json?: boolean },
): Promise<number> {
  const client = await connectDaemon(ctx.stateDir)
  const list = await client.get<ResourcesResponse>(`/resources${serverQuery(options.server)}`)
  ctx.out(options.json === true ? jsonText(list, 2) : formatResources(list))
  return 0
}

function blobBytes(item: ResourceContentsBody): Buffer {
  return Buffer.from(item.blob ?? '', 'base64')
}

export async function read(
  ctx: CliContext,
  server: string,
  uri: string,
  options: { out?: string; json?: boolean; session?: string },
): Promise<number> {
  const client = await connectDaemon(ctx.stateDir)
  const read = await client.post<ResourceReadResponse>('/resources/read', {
    server,
    uri,
    client: cliClient('read'),
    ...(options.session === undefined ? {} : { session: options.session }),
  })
  const contents = read.result.contents
  if (options.json === true) {
    ctx.out(jsonText(read.result, 2))
    return 0
  }
  if (options.out !== undefined) {
    if (contents.length !== 1) {
      throw new FerryError(
        ErrorCode.BadRequest,
        `${uri} has ${contents.length} content items and --out writes one; use --json to see them all`,
      )
    }
    const item = contents[0] as ResourceContentsBody
    const bytes = typeof item.blob === 'string' ? blobBytes(item) : Buffer.from(item.text ?? '')
    await writeFile(options.out, bytes)
    ctx.err(`wrote ${bytes.byteLength} bytes (${item.mimeType ?? 'no type'}) to ${options.out}`)
    return 0
  }
  for (const item of contents) {
    if (typeof item.text === 'string') ctx.out(item.text)
    else if (typeof item.blob === 'string') {
      ctx.out(
        `[blob ${item.uri}: ${item.mimeType ?? 'no type'}, ${blobBytes(item).byteLength} bytes; use --out FILE to save it]`,
      )
    }
  }
  return 0
}

/**
 * Follows a resource until Ctrl-C: subscribes the session, prints a line for each
 * `resource.updated` of it in the session's stream, and unsubscribes on the way out (unless the
 * session followed it before this command).
 */
export async function subscribe(
  ctx: CliContext,
  server: string,
  uri: string,
  options: { session?: string },
): Promise<number> {
  const client = await connectDaemon(ctx.stateDir)
  const who = cliClient('subscribe')
  const body = {
    server,
    uri,
    client: who,
    ...(options.session === undefined ? {} : { session: options.session }),
  }
  const answer = await client.post<ResourceSubscriptionResponse>('/resources/subscribe', body)
  const session = answer.session
  const after =
    answer.seq ??
    (await client.get<SessionInfo[]>('/sessions')).find((info) => info.id === session)?.headSeq ??
    0
  ctx.err(`following ${uri} of ${server} in session ${session}; Ctrl-C stops`)
  return new Promise((resolve) => {
    let ending = false
    const end = async (code: number, unsubscribe: boolean) => {
      if (ending) return
      ending = true
      stream.stop()
      if (unsubscribe && answer.seq !== null) {
        await client
          .post('/resources/unsubscribe', { ...body, session })
          .catch((error: unknown) => ctx.err(`ferry: ${(error as Error).message}`))
      }
      resolve(code)
    }
    const stream = new StreamClient({
      stateDir: ctx.stateDir,
      session,
      client: { kind: 'cli', label: who.label },
      readOnly: true,
      onEvent: (event) => {
        if (event.seq <= after || !('uri' in event)) return
        if (event.server !== server || event.uri !== uri) return
        if (event.type === 'resource.updated') ctx.out(`${event.time} updated ${uri}`)
        else if (event.type === 'resource.unsubscribed') {
          ctx.err(`ferry: unsubscribed by ${event.client?.label ?? 'Ferry'}`)
          void end(0, false)
        }
      },
      onStatus: (status) => ctx.err(`ferry: ${status}`),
      onFatal: (message) => {
        ctx.err(`ferry: ${message}`)
        void end(2, true)
      },
    })
    ctx.io.onInterrupt(() => void end(0, true))
    stream.start()
  })
}
