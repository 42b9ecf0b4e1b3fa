// The error codes of the wire: every error the daemon answers (REST, the stream, NDJSON lines, a
// failed call's event) carries one of these. Browser-safe.

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

/** An error as it crosses the wire. */
export interface WireError {
  code: ErrorCode
  message: string
}
