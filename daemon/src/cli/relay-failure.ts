// What went wrong between `ferry mcp` and Ferry, as the client is told it: Ferry's own JSON-RPC
// error where it gave one, else a sentence that says what to do; and whether trying again may help.

import { SdkHttpError } from '@modelcontextprotocol/client'
import { errorMessage, FerryError } from '../errors.js'

/** JSON-RPC's internal error, for what fails between the client and Ferry. */
export const BRIDGE_ERROR = -32603

/** The error a gateway answers a request of a session it does not know with. */
const SESSION_NOT_FOUND = -32001

export interface Failure {
  kind: 'refused' | 'session-gone' | 'connection-refused' | 'other'
  code: number
  message: string
}

/** The `{ code, message }` of a JSON-RPC error body, if the text is one. */
function rpcError(text: unknown): { code: number; message: string } | undefined {
  if (typeof text !== 'string') return undefined
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } }
    const { code, message } = body.error ?? {}
    return typeof code === 'number' && typeof message === 'string' ? { code, message } : undefined
  } catch {
    return undefined
  }
}

/** The socket error under a failed fetch (undici wraps it in causes). */
function socketCode(error: unknown): string | undefined {
  let inner: unknown = error
  while (inner instanceof Error && inner.cause !== undefined) inner = inner.cause
  return (inner as NodeJS.ErrnoException | undefined)?.code
}

export function failureOf(error: unknown, refusedMessage: (detail: string) => string): Failure {
  if (error instanceof FerryError) {
    return { kind: 'other', code: BRIDGE_ERROR, message: `ferry mcp: ${error.message}` }
  }
  if (error instanceof SdkHttpError) {
    const body = rpcError(error.data.text)
    if (error.status === 401) {
      return {
        kind: 'refused',
        code: BRIDGE_ERROR,
        message: refusedMessage(body?.message ?? 'HTTP 401'),
      }
    }
    const said = body?.message ?? (typeof error.data.text === 'string' ? error.data.text : '')
    return {
      kind:
        error.status === 404 && (body === undefined || body.code === SESSION_NOT_FOUND)
          ? 'session-gone'
          : 'other',
      code: body?.code ?? BRIDGE_ERROR,
      message: `Ferry answered HTTP ${error.status}: ${said}`,
    }
  }
  const code = socketCode(error)
  return {
    kind: code === 'ECONNREFUSED' ? 'connection-refused' : 'other',
    code: BRIDGE_ERROR,
    message: `ferry mcp: Ferry is not answering (${code ?? errorMessage(error)}); check \`ferry status\` or start it with \`ferry start\``,
  }
}
