// Turns what the SDK throws during a tool call into a FerryError: cancelled, timed out (per step
// or in total), server gone, or an error the server returned.

import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client'
import { ErrorCode, FerryError, errorMessage } from '../errors.js'
import { describeHttpFailure, httpFailureOf } from './http-failures.js'

export interface CallFailureContext {
  server: string
  tool: string
  /** The caller aborted: a cancel, never reported as a timeout even though the SDK says so. */
  cancelled: boolean
  timeout: number
  /** How the process ended, e.g. `exited with code 7`, if it did. */
  processEnd: string | undefined
  /** The last line the server wrote to stderr, if any: often what went wrong. */
  lastStderr?: string | undefined
  /** A remote server could not be reached, or answered 5xx: why. */
  unreachable?: string | undefined
}

export function describeCallFailure(error: unknown, context: CallFailureContext): FerryError {
  const { server, tool } = context
  if (context.cancelled) {
    return new FerryError(ErrorCode.ToolCancelled, `call to ${tool} was cancelled`, {
      cause: error,
    })
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
    const total = (error.data as { maxTotalTimeout?: unknown } | undefined)?.maxTotalTimeout
    const message =
      typeof total === 'number'
        ? `${tool} on "${server}" ran past its total limit of ${total} ms`
        : `${tool} on "${server}" timed out after ${context.timeout} ms without progress`
    return new FerryError(ErrorCode.ToolTimeout, message, { cause: error })
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) {
    const end = context.processEnd ?? 'closed the connection'
    const tail = context.lastStderr ? `; last stderr line: ${context.lastStderr}` : ''
    return new FerryError(
      ErrorCode.ServerCrashed,
      `server "${server}" ${end} during the call to ${tool}${tail}`,
      {
        cause: error,
      },
    )
  }
  if (error instanceof FerryError) return error
  if (context.unreachable !== undefined) {
    return new FerryError(
      ErrorCode.UpstreamError,
      `server "${server}" is unreachable: ${context.unreachable}; Ferry reconnects by itself`,
      { cause: error },
    )
  }
  const failure = httpFailureOf(error)
  if (failure !== undefined) {
    return new FerryError(
      ErrorCode.UpstreamError,
      `server "${server}": ${describeHttpFailure(failure)}`,
      {
        cause: error,
      },
    )
  }
  return new FerryError(ErrorCode.UpstreamError, `server "${server}": ${errorMessage(error)}`, {
    cause: error,
  })
}
