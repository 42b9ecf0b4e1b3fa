// One table from error codes to HTTP statuses, and the error body every route returns.

import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { ErrorCode, toWireError } from '../errors.js'
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
  [ErrorCode.NeedsLogin]: 409,
  [ErrorCode.ToolNotFound]: 404,
  [ErrorCode.ToolTimeout]: 504,
  [ErrorCode.Timeout]: 504,
  [ErrorCode.ToolCancelled]: 499 as ContentfulStatusCode,
  [ErrorCode.ServerCrashed]: 502,
  [ErrorCode.UpstreamError]: 502,
  [ErrorCode.Conflict]: 409,
  [ErrorCode.ApprovalChanged]: 409,
  [ErrorCode.ConfirmationUnavailable]: 409,
  [ErrorCode.InvalidArguments]: 422,
  [ErrorCode.InvalidInputAnswer]: 422,
  [ErrorCode.TooManyRequests]: 429,
  [ErrorCode.DaemonRunning]: 409,
  [ErrorCode.DaemonNotRunning]: 503,
  [ErrorCode.Internal]: 500,
}

export function errorBody(code: ErrorCode, message: string): ErrorBody {
  return { error: { code, message } }
}

/** The error's body and status; an internal error is logged (once) with the route it met. */
export function respondWithError(c: Context, error: unknown, log: Log): Response {
  const wire = toWireError(error, log, { where: `http ${c.req.method} ${c.req.path}` })
  return c.json(errorBody(wire.code, wire.message), statusOf[wire.code])
}
