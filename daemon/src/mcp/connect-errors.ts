// Turns what the SDK throws while connecting into one plain sentence that says what to fix.

import { ProtocolError } from '@modelcontextprotocol/client'
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
import type { SpawnFailure } from './launcher-facts.js'

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
  /** What the launcher said about the process, e.g. `exited with code 3`, if it ended. */
  processEnd: string | undefined
  /** The command could not be started at all. */
  spawnFailure: SpawnFailure | undefined
  lastStderr: string | undefined
  /** The `WWW-Authenticate` header of a 401 answer, if there was one. */
  authChallenge: string | undefined
}

export function describeConnectFailure(error: unknown, context: ConnectFailureContext): string {
  const { config } = context
  if (context.spawnFailure !== undefined) return describeSpawnFailure(context.spawnFailure, config)
  if (context.timedOut) {
    return `no answer within ${config.discoveryTimeoutMs} ms (discoveryTimeoutMs); raise it if the server is slow to start`
  }
  if (supportsOnlyModern(error)) {
    return config.transport === 'stdio'
      ? `the server speaks only protocol ${MODERN_VERSION}; set "versionNegotiation": "auto" for "${config.name}" in settings`
      : `the server speaks only protocol ${MODERN_VERSION}, which Ferry negotiates with stdio servers only`
  }
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
