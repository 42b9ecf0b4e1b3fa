// FerryError: the one error type Ferry raises, with a string code the HTTP layer and the CLI map to
// statuses and exit codes in one place each; and the one conversion of any error for the wire, which
// logs every internal error.

import type { Log } from './log.js'
import { redactUrls } from './protocol/redact-url.js'

export const ErrorCode = {
  ConfigInvalid: 'config_invalid',
  ConfigParse: 'config_parse',
  BadRequest: 'bad_request',
  Unauthorized: 'unauthorized',
  Forbidden: 'forbidden',
  NotFound: 'not_found',
  UnsupportedMediaType: 'unsupported_media_type',
  PayloadTooLarge: 'payload_too_large',
  ServerNotReady: 'server_not_ready',
  /** A remote server that needs an OAuth sign-in first (`ferry login`); 409. */
  NeedsLogin: 'needs_login',
  ToolNotFound: 'tool_not_found',
  ToolTimeout: 'tool_timeout',
  /** A prompt get, resource read or completion the server did not answer in time. */
  Timeout: 'timeout',
  ToolCancelled: 'tool_cancelled',
  ServerCrashed: 'server_crashed',
  UpstreamError: 'upstream_error',
  Conflict: 'conflict',
  /** A workspace entry, or a file it runs, changed since it was shown for approval (409). */
  ApprovalChanged: 'approval_changed',
  ConfirmationUnavailable: 'confirmation_unavailable',
  /**
   * A call's arguments refused before anything of the call is recorded: nested or sized beyond what
   * a transcript keeps whole, or not what the tool's input schema asks for (422).
   */
  InvalidArguments: 'invalid_arguments',
  /** An answer to a server's question that does not fit what it asked for (422). */
  InvalidInputAnswer: 'invalid_input_answer',
  /** An MCP App past its request budget (429). */
  TooManyRequests: 'too_many_requests',
  DaemonRunning: 'daemon_running',
  DaemonNotRunning: 'daemon_not_running',
  Internal: 'internal',
} as const

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode]

export class FerryError extends Error {
  readonly code: ErrorCode
  readonly details: Record<string, unknown> | undefined

  constructor(
    code: ErrorCode,
    message: string,
    options: { cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'FerryError'
    this.code = code
    this.details = options.details
  }
}

/** An error's text, with any URL in it redacted: SDK and fetch errors name the URL they used. */
export function errorMessage(error: unknown): string {
  return redactUrls(error instanceof Error ? error.message : String(error))
}

/** Where an error surfaced, for its log line: no tokens, headers, arguments or results. */
export interface ErrorContext {
  /** The path that caught it, e.g. `call`, `http POST /api/call`, `stream answer`. */
  where: string
  session?: string | undefined
  callId?: string | undefined
}

export const INTERNAL_MESSAGE = 'internal error; see the daemon log'

/** Errors already logged, so one that passes several layers is logged once, by the first. */
const logged = new WeakSet<object>()

/**
 * The error as Ferry reports it: a FerryError as it is, anything else as `internal`. Every internal
 * error (also a FerryError coded `internal`) is logged once with its kind, ids and stack.
 */
export function toFerryError(error: unknown, log: Log, context: ErrorContext): FerryError {
  const known = error instanceof FerryError ? error : undefined
  if (known !== undefined && known.code !== ErrorCode.Internal) return known
  const failure = known ?? new FerryError(ErrorCode.Internal, INTERNAL_MESSAGE, { cause: error })
  const cause = known?.cause ?? error
  if (!logged.has(failure) && !(typeof cause === 'object' && cause !== null && logged.has(cause))) {
    log({
      kind: 'internal_error',
      where: context.where,
      ...(context.session === undefined ? {} : { session: context.session }),
      ...(context.callId === undefined ? {} : { callId: context.callId }),
      error: errorMessage(cause),
      stack: cause instanceof Error ? (cause.stack ?? null) : null,
    })
  }
  logged.add(failure)
  if (typeof cause === 'object' && cause !== null) logged.add(cause)
  return failure
}

/** `toFerryError` as the `{ code, message }` every error body and stream reply carries. */
export function toWireError(
  error: unknown,
  log: Log,
  context: ErrorContext,
): { code: ErrorCode; message: string } {
  const failure = toFerryError(error, log, context)
  return { code: failure.code, message: failure.message }
}
