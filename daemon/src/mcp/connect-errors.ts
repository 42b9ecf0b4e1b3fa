// Turns what the SDK throws while connecting into one plain sentence that says what to fix.

import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client'
import type { ServerConfig } from '../config/types.js'
import { errorMessage } from '../errors.js'

const MODERN_VERSION = '2026-07-28'
const UNSUPPORTED_PROTOCOL_VERSION = -32022

function supportsOnlyModern(error: unknown): boolean {
  if (error instanceof ProtocolError && error.code === UNSUPPORTED_PROTOCOL_VERSION) {
    const supported = (error.data as { supported?: unknown } | undefined)?.supported
    return Array.isArray(supported) && supported.includes(MODERN_VERSION)
  }
  return error instanceof SdkError && error.code === SdkErrorCode.ClientHttpNotImplemented
}

export interface ConnectFailureContext {
  config: ServerConfig
  timedOut: boolean
  /** What the launcher said about the process, e.g. `exited with code 3`, if it ended. */
  processEnd: string | undefined
  lastStderr: string | undefined
}

export function describeConnectFailure(error: unknown, context: ConnectFailureContext): string {
  const { config } = context
  if (context.timedOut) {
    return `no answer within ${config.discoveryTimeoutMs} ms (discoveryTimeoutMs); raise it if the server is slow to start`
  }
  if (supportsOnlyModern(error)) {
    return config.transport === 'stdio'
      ? `the server speaks only protocol ${MODERN_VERSION}; set "versionNegotiation": "auto" for "${config.name}" in settings`
      : `the server speaks only protocol ${MODERN_VERSION}, which Ferry negotiates with stdio servers only`
  }
  if (context.processEnd !== undefined) {
    const tail = context.lastStderr ? `; last stderr line: ${context.lastStderr}` : ''
    return `server process ${context.processEnd} before it finished connecting${tail}`
  }
  return errorMessage(error)
}
