// Turns what the SDK throws while connecting into one plain sentence that says what to fix.

import { ProtocolError, SseError } from '@modelcontextprotocol/client'
import type { ServerConfig } from '../config/types.js'
import { errorMessage } from '../errors.js'
import { redactUrl } from '../protocol/redact-url.js'
import {
  describeHttpFailure,
  httpFailureOf,
  isModernOnlyRefusal,
  unreachableReason,
  type HttpFailure,
} from './http-failures.js'
import type { SpawnFailure } from './server-process.js'

const MODERN_VERSION = '2026-07-28'
const UNSUPPORTED_PROTOCOL_VERSION = -32022

function supportsOnlyModern(error: unknown): boolean {
  if (error instanceof ProtocolError && error.code === UNSUPPORTED_PROTOCOL_VERSION) {
    const supported = (error.data as { supported?: unknown } | undefined)?.supported
    return Array.isArray(supported) && supported.includes(MODERN_VERSION)
  }
  const failure = httpFailureOf(error)
  return failure !== undefined && isModernOnlyRefusal(failure)
}

export interface ConnectFailureContext {
  config: ServerConfig
  timedOut: boolean
  /** How the process ended, e.g. `exited with code 3`, if it did. */
  processEnd: string | undefined
  /** The command could not be started at all. */
  spawnFailure: SpawnFailure | undefined
  lastStderr: string | undefined
  /** The `WWW-Authenticate` header of a 401 answer, if there was one. */
  authChallenge: string | undefined
  /** What Streamable HTTP answered a bare `url` before Ferry tried SSE instead, if it did. */
  fellBackFrom?: HttpFailure | undefined
}

export function describeConnectFailure(error: unknown, context: ConnectFailureContext): string {
  const { config } = context
  if (context.spawnFailure !== undefined) return describeSpawnFailure(context.spawnFailure, config)
  if (context.timedOut) {
    return `no answer within ${config.discoveryTimeoutMs} ms (discoveryTimeoutMs); raise it if the server is slow to start`
  }
  if (supportsOnlyModern(error)) return onlyModern(config.name)
  if (context.fellBackFrom !== undefined) {
    return describeFallbackFailure(context.fellBackFrom, error, context)
  }
  if (error instanceof SseError) return describeSseFailure(error, context)
  const failure = httpFailureOf(error)
  if (failure !== undefined) return describeHttpConnectFailure(failure, context)
  if (config.transport !== 'stdio') {
    const unreachable = unreachableReason(error)
    if (unreachable !== undefined) return `cannot reach ${redactUrl(config.url)}: ${unreachable}`
  }
  if (context.processEnd !== undefined) {
    const tail = context.lastStderr ? `; last stderr line: ${context.lastStderr}` : ''
    return `server process ${context.processEnd} before it finished connecting${tail}`
  }
  return errorMessage(error)
}

function onlyModern(name: string): string {
  return `the server speaks only protocol ${MODERN_VERSION}; set "versionNegotiation": "auto" for "${name}" in settings`
}

/** What the SSE transport met, as the HTTP status it names, with what to check. */
function sseAnswer(error: unknown): { said: string; status: number | undefined } {
  if (error instanceof SseError && error.code !== undefined) {
    return { said: `HTTP ${error.code}`, status: error.code }
  }
  const unreachable = unreachableReason(error)
  return { said: unreachable ?? errorMessage(error), status: undefined }
}

function sseHint(status: number | undefined, name: string): string | undefined {
  if (status === 401) return `check the credentials in "headers" for "${name}"`
  if (status === 403) return `the server refuses these credentials for "${name}"`
  if (status === 404 || status === 405) {
    return `check the URL of "${name}" in settings: it should be the server's SSE endpoint`
  }
  if (status !== undefined && status >= 500) return 'the server failed; see its own logs'
  return undefined
}

/** An SSE server's failure (its GET answered an error status), with the next step. */
function describeSseFailure(error: SseError, context: ConnectFailureContext): string {
  const { said, status } = sseAnswer(error)
  const hint = sseHint(status, context.config.name)
  return `SSE GET ${redactUrl(urlOf(context.config))} answered ${said}${hint === undefined ? '' : `; ${hint}`}`
}

/**
 * A bare `url` whose Streamable HTTP POST was refused with a 4xx, and whose SSE fallback failed
 * too: both answers, and what they together suggest.
 */
function describeFallbackFailure(
  first: HttpFailure,
  error: unknown,
  context: ConnectFailureContext,
): string {
  const name = context.config.name
  if (isModernOnlyRefusal(first)) return onlyModern(name)
  const { said, status } = sseAnswer(error)
  const both = `Streamable HTTP POST answered ${describeHttpFailure(first)}, then the SSE fallback's GET answered ${said}`
  if ((first.status === 404 || first.status === 405) && (status === 404 || status === 405)) {
    return `${both}; check the URL of "${name}" in settings: it should be the server's MCP endpoint (a server that speaks only 2026-07-28 is reached with "versionNegotiation": "auto")`
  }
  const hint = sseHint(status, name)
  return hint === undefined ? both : `${both}; ${hint}`
}

function urlOf(config: ServerConfig): string {
  return config.transport === 'stdio' ? config.command : config.url
}

function describeSpawnFailure(failure: SpawnFailure, config: ServerConfig): string {
  const what = `"${failure.command}" (${failure.message})`
  if (failure.code === 'ENOENT') {
    return `command not found: ${what}; check "command" for "${config.name}" in settings or your PATH`
  }
  if (failure.code === 'EACCES') {
    return `command not executable: ${what}; make it executable (chmod +x) or check "command" for "${config.name}" in settings`
  }
  return `cannot start ${what}; check "command" for "${config.name}" in settings`
}

function describeHttpConnectFailure(failure: HttpFailure, context: ConnectFailureContext): string {
  const name = context.config.name
  const said = describeHttpFailure(failure)
  if (failure.status === 401) {
    const challenge = context.authChallenge?.trim()
    if (challenge !== undefined && /^bearer\b/i.test(challenge)) {
      return `${said}; the server asks for an OAuth bearer token (WWW-Authenticate: Bearer), and sign-in is off for "${name}" ("oauth": { "enabled": false }); turn it on and run \`ferry login ${name}\`, or set "headers": { "Authorization": "Bearer …" }`
    }
    return `${said}; check the credentials in "headers" for "${name}"`
  }
  if (failure.status === 403) return `${said}; the server refuses these credentials for "${name}"`
  if (failure.status === 404 || failure.status === 405) {
    return `${said}; check the URL of "${name}" in settings: it should be the server's MCP endpoint`
  }
  return said
}
