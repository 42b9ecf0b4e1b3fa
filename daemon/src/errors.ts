// FerryError: the one error type Ferry raises, with a string code the HTTP layer and the CLI map to
// statuses and exit codes in one place each.

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
  ToolNotFound: 'tool_not_found',
  ToolTimeout: 'tool_timeout',
  ToolCancelled: 'tool_cancelled',
  ServerCrashed: 'server_crashed',
  UpstreamError: 'upstream_error',
  Conflict: 'conflict',
  ConfirmationUnavailable: 'confirmation_unavailable',
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

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
