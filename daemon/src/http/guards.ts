// Request guards for every route: Host allowlist (DNS rebinding), Origin allowlist (cross-site
// requests), bearer token (constant-time), and JSON bodies with a size limit.

import { createHash, timingSafeEqual } from 'node:crypto'
import type { Context, MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { ErrorCode, FerryError } from '../errors.js'

export const MAX_BODY_BYTES = 1024 * 1024

/** Rejects any Host header that is not exactly one of `hosts` (e.g. `127.0.0.1:4123`). */
export function hostGuard(hosts: () => ReadonlySet<string>): MiddlewareHandler {
  return async function hostGuard(c, next) {
    const host = c.req.header('host')
    if (host === undefined || !hosts().has(host.toLowerCase())) {
      throw new FerryError(ErrorCode.Forbidden, 'forbidden host')
    }
    await next()
  }
}

/** A request without Origin passes (CLI, scripts); `null` and foreign origins never do. */
export function originGuard(origins: () => ReadonlySet<string>): MiddlewareHandler {
  return async function originGuard(c, next) {
    const origin = c.req.header('origin')
    if (origin !== undefined && !origins().has(origin)) {
      throw new FerryError(ErrorCode.Forbidden, 'forbidden origin')
    }
    await next()
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest()
}

export function tokenMatches(presented: string, expected: string): boolean {
  return timingSafeEqual(digest(presented), digest(expected))
}

export function bearerAuth(token: string): MiddlewareHandler {
  return async function bearerAuth(c, next) {
    const header = c.req.header('authorization') ?? ''
    const match = /^Bearer ([A-Za-z0-9_-]{1,256})$/.exec(header)
    if (match === null || !tokenMatches(match[1] as string, token)) {
      throw new FerryError(ErrorCode.Unauthorized, 'missing or invalid token')
    }
    await next()
  }
}

/** Parses a JSON object body: 415 for another media type, 400 if malformed. */
export async function jsonBody(c: Context): Promise<Record<string, unknown>> {
  const type = c.req.header('content-type') ?? ''
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    throw new FerryError(
      ErrorCode.UnsupportedMediaType,
      'send the body as Content-Type: application/json',
    )
  }
  const text = await c.req.text()
  let parsed: unknown
  try {
    parsed = text.trim() === '' ? {} : JSON.parse(text)
  } catch (error) {
    throw new FerryError(ErrorCode.BadRequest, `malformed JSON body: ${(error as Error).message}`)
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new FerryError(ErrorCode.BadRequest, 'the JSON body must be an object')
  }
  return parsed as Record<string, unknown>
}

/** Streams are cut off past the limit, whether or not Content-Length was declared. */
export const limitBody: MiddlewareHandler = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw new FerryError(ErrorCode.PayloadTooLarge, `body larger than ${MAX_BODY_BYTES} bytes`)
  },
})
