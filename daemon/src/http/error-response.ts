// One table from error codes to HTTP statuses, and the error body every route returns.

import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { ErrorCode, FerryError } from '../errors.js'
import type { Log } from '../log.js'
import type { ErrorBody } from '../protocol/index.js'

const statusOf: Record<ErrorCode, ContentfulStatusCode> = {
  [ErrorCode.ConfigInvalid]: 400,
  [ErrorCode.ConfigParse]: 400,
  [ErrorCode.BadRequest]: 400,
  [ErrorCode.Unauthorized]: 401,
  [ErrorCode.Forbidden]: 403,
  [ErrorCode.NotFound]: 404,
  [ErrorCode.UnsupportedMediaType]: 415,
  [ErrorCode.PayloadTooLarge]: 413,
  [ErrorCode.ServerNotReady]: 503,
  [ErrorCode.ToolNotFound]: 404,
  [ErrorCode.ToolTimeout]: 504,
  [ErrorCode.ToolCancelled]: 499 as ContentfulStatusCode,
  [ErrorCode.ServerCrashed]: 502,
  [ErrorCode.UpstreamError]: 502,
  [ErrorCode.Conflict]: 409,
  [ErrorCode.ConfirmationUnavailable]: 409,
  [ErrorCode.DaemonRunning]: 409,
  [ErrorCode.DaemonNotRunning]: 503,
  [ErrorCode.Internal]: 500,
}

export function errorBody(code: string, message: string): ErrorBody {
  return { error: { code, message } }
}

export function respondWithError(c: Context, error: unknown, log: Log): Response {
  if (error instanceof FerryError) {
    return c.json(errorBody(error.code, error.message), statusOf[error.code])
  }
  log({ kind: 'http.internal_error', path: c.req.path, error: String(error) })
  return c.json(errorBody(ErrorCode.Internal, 'internal error; see the daemon log'), 500)
}
