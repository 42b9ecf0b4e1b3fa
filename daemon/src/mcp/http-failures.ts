// Reads what went wrong on an HTTP exchange with a remote server: a status with its body, a lost
// session (404 on a known Mcp-Session-Id), or a server that cannot be reached.

import { STATUS_CODES } from 'node:http'
import { SdkHttpError } from '@modelcontextprotocol/client'
import { errorMessage } from '../errors.js'
import { redactUrls } from '../protocol/redact-url.js'

/** How much of a response body an error quotes. */
export const BODY_QUOTE_CHARS = 200
const UNSUPPORTED_PROTOCOL_VERSION = -32022
const MODERN_VERSION = '2026-07-28'

export interface HttpFailure {
  status: number
  statusText: string
  body: string
}

/** The status and body of a non-OK answer, if `error` is one. */
export function httpFailureOf(error: unknown): HttpFailure | undefined {
  if (!(error instanceof SdkHttpError)) return undefined
  const data = error.data as { status?: unknown; statusText?: unknown; text?: unknown } | undefined
  if (typeof data?.status !== 'number') return undefined
  const statusText =
    typeof data.statusText === 'string' && data.statusText !== ''
      ? data.statusText
      : (STATUS_CODES[data.status] ?? '')
  return { status: data.status, statusText, body: typeof data.text === 'string' ? data.text : '' }
}

/**
 * `HTTP 401 Unauthorized: <the start of the body, on one line>`, URLs redacted: a server may echo
 * the request's URL, query and all.
 */
export function describeHttpFailure(failure: HttpFailure): string {
  const flat = redactUrls(failure.body.replace(/\s+/g, ' ').trim())
  const quoted = flat.length > BODY_QUOTE_CHARS ? `${flat.slice(0, BODY_QUOTE_CHARS)}…` : flat
  const head = `HTTP ${failure.status}${failure.statusText === '' ? '' : ` ${failure.statusText}`}`
  return quoted === '' ? `${head} (empty body)` : `${head}: ${quoted}`
}

/** A 400 whose body is a JSON-RPC -32022 error listing only the 2026 protocol. */
export function isModernOnlyRefusal(failure: HttpFailure): boolean {
  if (failure.status !== 400) return false
  try {
    const parsed = JSON.parse(failure.body) as {
      error?: { code?: unknown; data?: { supported?: unknown } }
    }
    if (parsed.error?.code !== UNSUPPORTED_PROTOCOL_VERSION) return false
    const supported = parsed.error.data?.supported
    return !Array.isArray(supported) || supported.includes(MODERN_VERSION)
  } catch {
    return false
  }
}

const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection dropped',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
}

/** Why the server could not be reached (`connection refused (ECONNREFUSED)`), if that is the error. */
export function unreachableReason(error: unknown): string | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 4; depth++) {
    const code = (cause as { code?: unknown }).code
    if (typeof code === 'string' && code in UNREACHABLE) return `${UNREACHABLE[code]} (${code})`
    cause = cause.cause
  }
  if (error instanceof TypeError && error.message === 'fetch failed') {
    return error.cause instanceof Error
      ? `fetch failed: ${errorMessage(error.cause)}`
      : 'fetch failed'
  }
  return undefined
}

export type RemoteFault =
  /** The server no longer knows the session: it did not process the request. */
  | { kind: 'session-lost' }
  /** Refused, dropped or a 5xx: the server is down until a reconnect gets through. */
  | { kind: 'down'; reason: string }

export function remoteFaultOf(error: unknown): RemoteFault | undefined {
  const failure = httpFailureOf(error)
  if (failure?.status === 404) return { kind: 'session-lost' }
  if (failure !== undefined && failure.status >= 500) {
    return { kind: 'down', reason: describeHttpFailure(failure) }
  }
  const unreachable = unreachableReason(error)
  return unreachable === undefined ? undefined : { kind: 'down', reason: unreachable }
}
