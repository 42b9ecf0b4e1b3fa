// FerryError: the one error type Ferry raises, with a string code the HTTP layer and the CLI map to
// statuses and exit codes in one place each; and the one conversion of any error for the wire, which
// logs every internal error.

import type { Log } from './log.js'
import { redactUrls } from './protocol/redact-url.js'
import { ErrorCode } from './protocol/errors.js'

export { ErrorCode }

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
