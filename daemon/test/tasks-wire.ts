// Raw MCP requests to the gateway for the Tasks tests: 2026-07-28 requests with their envelope and
// headers, and legacy sessions opened by hand, since the SDK client cannot take a task result.

import { expect } from 'vitest'
import type { GatewayTokenCreateResponse } from '../src/protocol/index.js'
import type { Daemon } from './harness.js'
import { sseMessages } from './sse.js'

export const MODERN = '2026-07-28'
export const LEGACY = '2025-11-25'
export const TASKS = 'io.modelcontextprotocol/tasks'
/** Client capabilities that declare the Tasks extension. */
export const WITH_TASKS = { extensions: { [TASKS]: {} } }

export interface RpcAnswer {
  status: number
  body: {
    result?: Record<string, unknown>
    error?: { code: number; message: string; data?: unknown }
  }
}

let nextId = 1

/** A fresh JSON-RPC request id. */
export function newId(): number {
  return nextId++
}

/** The id the next request will carry. */
export function peekId(): number {
  return nextId
}

/** The JSON-RPC answer in a response, sent as JSON or as the last message of an SSE stream. */
export async function answerOf(response: Response): Promise<RpcAnswer> {
  const text = await response.text()
  const last = sseMessages(text).at(-1)
  if (last === undefined) throw new Error(`no JSON-RPC message in the answer: ${text}`)
  return { status: response.status, body: last as RpcAnswer['body'] }
}

/**
 * One 2026-07-28 request, with the per-request envelope and the headers the era requires, as the
 * raw response; `meta` adds to the envelope (a `progressToken`, say).
 */
export function modernRequest(
  daemon: Daemon,
  token: string,
  method: string,
  params: Record<string, unknown> = {},
  capabilities: Record<string, unknown> = {},
  meta: Record<string, unknown> = {},
): Promise<Response> {
  const name = typeof params.name === 'string' ? params.name : params.taskId
  return fetch(new URL('mcp', daemon.info.url), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientInfo': { name: 'raw-modern', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': capabilities,
          ...meta,
        },
      },
    }),
  })
}

/** One 2026-07-28 request (see `modernRequest`), its JSON-RPC answer read. */
export async function modern(
  daemon: Daemon,
  token: string,
  method: string,
  params: Record<string, unknown> = {},
  capabilities: Record<string, unknown> = {},
): Promise<RpcAnswer> {
  return answerOf(await modernRequest(daemon, token, method, params, capabilities))
}

export interface LegacySession {
  request(method: string, params?: Record<string, unknown>): Promise<RpcAnswer>
  notify(method: string, params?: Record<string, unknown>): Promise<number>
}

/** A 2025-11-25 session opened with `capabilities` in its `initialize`. */
export async function legacySession(
  daemon: Daemon,
  token: string,
  capabilities: Record<string, unknown>,
): Promise<LegacySession> {
  const post = (body: unknown, session?: string) =>
    fetch(new URL('mcp', daemon.info.url), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
        ...(session === undefined
          ? {}
          : { 'mcp-session-id': session, 'mcp-protocol-version': LEGACY }),
      },
      body: JSON.stringify(body),
    })
  const opened = await post({
    jsonrpc: '2.0',
    id: nextId++,
    method: 'initialize',
    params: {
      protocolVersion: LEGACY,
      capabilities,
      clientInfo: { name: 'raw-legacy', version: '1' },
    },
  })
  const session = opened.headers.get('mcp-session-id')
  expect((await answerOf(opened)).body.result).toMatchObject({ protocolVersion: LEGACY })
  if (session === null) throw new Error('initialize opened no session')
  const notify = async (method: string, params: Record<string, unknown> = {}) =>
    (await post({ jsonrpc: '2.0', method, params }, session)).status
  expect(await notify('notifications/initialized')).toBe(202)
  return {
    request: async (method, params = {}) =>
      answerOf(await post({ jsonrpc: '2.0', id: nextId++, method, params }, session)),
    notify,
  }
}

export async function gatewayToken(daemon: Daemon, name: string): Promise<string> {
  const response = await daemon.api('/gateway/tokens', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  })
  expect(response.status).toBe(201)
  return ((await response.json()) as GatewayTokenCreateResponse).token
}
