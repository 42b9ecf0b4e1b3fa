// Raw requests to a test daemon's `/mcp` (fetch, so statuses, headers and bodies are seen as sent)
// and SDK clients of either era, with gateway tokens made through the real CLI.

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { expect } from 'vitest'
import type { Daemon } from './harness.js'
import { sseMessages } from './sse.js'

export const MODERN = '2026-07-28'
export const LEGACY = '2025-11-25'

/** Creates a gateway token through `ferry gateway token create`, which prints it on stdout alone. */
export async function createToken(
  daemon: Daemon,
  name: string,
  args: string[] = [],
): Promise<string> {
  const created = await daemon.cli(['gateway', 'token', 'create', name, ...args])
  expect(created.code, created.stderr).toBe(0)
  return created.stdout.trim()
}

export function mcpUrl(daemon: Daemon): string {
  return new URL('/mcp', daemon.info.url).href
}

export interface McpAnswer {
  status: number
  headers: Headers
  text: string
  /** The JSON-RPC message of the answer (JSON or the first SSE message), if any. */
  message: Record<string, unknown> | undefined
}

function messageOf(text: string): Record<string, unknown> | undefined {
  try {
    return sseMessages(text)[0]
  } catch {
    return undefined
  }
}

/** The `_meta` envelope a 2026-07-28 request carries. */
export function envelope(): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientInfo': { name: 'raw-test', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  }
}

/** The headers a 2026-07-28 request carries for `method` (and `Mcp-Name` when given). */
export function modernHeaders(method: string, name?: string): Record<string, string> {
  return {
    'mcp-protocol-version': MODERN,
    'mcp-method': method,
    ...(name === undefined ? {} : { 'mcp-name': name }),
  }
}

/** A modern request's body: `params` with the envelope added. */
export function modernBody(
  method: string,
  params: Record<string, unknown> = {},
  id = 1,
): Record<string, unknown> {
  return { jsonrpc: '2.0', id, method, params: { ...params, _meta: envelope() } }
}

export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: LEGACY,
    capabilities: {},
    clientInfo: { name: 'raw-test', version: '1.0.0' },
  },
}

export interface PostOptions {
  method?: string
  headers?: Record<string, string>
  /** A string is sent as it is; anything else as JSON. */
  body?: unknown
}

/** One request to `/mcp` with `token` (none when null). */
export async function mcp(
  daemon: Daemon,
  token: string | null,
  options: PostOptions = {},
): Promise<McpAnswer> {
  const method = options.method ?? 'POST'
  const body =
    method === 'POST'
      ? typeof options.body === 'string'
        ? options.body
        : JSON.stringify(options.body)
      : undefined
  const response = await fetch(mcpUrl(daemon), {
    method,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...options.headers,
    },
    ...(body === undefined ? {} : { body }),
  })
  const text = await response.text()
  return { status: response.status, headers: response.headers, text, message: messageOf(text) }
}

/** The error of a JSON-RPC answer. */
export function errorOf(answer: McpAnswer): { code: number; message: string; data?: unknown } {
  const error = answer.message?.error as { code: number; message: string } | undefined
  if (error === undefined) throw new Error(`no JSON-RPC error in ${answer.status} ${answer.text}`)
  return error
}

/** Opens a legacy session by hand (initialize, initialized) and returns its id. */
export async function openLegacySession(daemon: Daemon, token: string): Promise<string> {
  const opened = await mcp(daemon, token, { body: INITIALIZE })
  expect(opened.status, opened.text).toBe(200)
  const id = opened.headers.get('mcp-session-id')
  expect(id).toMatch(/^[0-9a-f-]{36}$/)
  const initialized = await mcp(daemon, token, {
    headers: sessionHeaders(id as string),
    body: { jsonrpc: '2.0', method: 'notifications/initialized' },
  })
  expect(initialized.status).toBe(202)
  return id as string
}

export function sessionHeaders(id: string): Record<string, string> {
  return { 'mcp-session-id': id, 'mcp-protocol-version': LEGACY }
}

export interface SdkClient {
  client: Client
  transport: StreamableHTTPClientTransport
  /** `Mcp-Method` (or the body's method) of every POST the client sent, with the status. */
  sent: Array<{ method: string; status: number; session: string | null }>
}

/** An SDK v2 client on `/mcp`: `legacy` speaks 2025-11-25 with a session, `auto` finds 2026-07-28. */
export async function sdkClient(
  daemon: Daemon,
  token: string,
  mode: 'legacy' | 'auto',
): Promise<SdkClient> {
  const sent: SdkClient['sent'] = []
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl(daemon)), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
    fetch: async (url, init) => {
      const response = await fetch(url, init)
      if (init?.method === 'POST') {
        const headers = new Headers(init.headers)
        const body = JSON.parse(String(init.body)) as { method?: string }
        sent.push({
          method: headers.get('mcp-method') ?? body.method ?? 'response',
          status: response.status,
          session: headers.get('mcp-session-id'),
        })
      }
      return response
    },
  })
  const client = new Client(
    { name: `sdk-${mode}`, version: '1.0.0' },
    { versionNegotiation: { mode } },
  )
  await client.connect(transport)
  return { client, transport, sent }
}
