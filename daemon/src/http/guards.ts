// Request guards for every route: Host allowlist (DNS rebinding), Origin allowlist (cross-site
// requests), bearer token (constant-time), and JSON bodies with a size limit.

import { hash, timingSafeEqual } from 'node:crypto'
import type { HttpBindings } from '@hono/node-server'
import type { Context, MiddlewareHandler } from 'hono'
import type { z } from 'zod'
import { ErrorCode, FerryError } from '../errors.js'
import { readChunks } from '../gateway/request-body.js'
import { GATEWAY_TOKEN_PREFIX } from '../gateway/token-store.js'
import { MAX_BODY_BYTES } from '../limits.js'

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
export function checkOrigin(c: Context, origins: ReadonlySet<string>): void {
  const origin = c.req.header('origin')
  if (origin !== undefined && !origins.has(origin)) {
    throw new FerryError(ErrorCode.Forbidden, 'forbidden origin')
  }
}

export function originGuard(origins: () => ReadonlySet<string>): MiddlewareHandler {
  return async function originGuard(c, next) {
    checkOrigin(c, origins())
    await next()
  }
}

function digest(value: string): Buffer {
  return hash('sha256', value, 'buffer')
}

/** Compares a presented token with `expected` in constant time; `expected` is hashed once. */
export function tokenMatcher(expected: string): (presented: string) => boolean {
  const wanted = digest(expected)
  return (presented) => timingSafeEqual(digest(presented), wanted)
}

export function tokenMatches(presented: string, expected: string): boolean {
  return tokenMatcher(expected)(presented)
}

export function bearerAuth(token: string): MiddlewareHandler {
  const matches = tokenMatcher(token)
  return async function bearerAuth(c, next) {
    const header = c.req.header('authorization') ?? ''
    const match = /^Bearer ([A-Za-z0-9_-]{1,256})$/.exec(header)
    if (match === null || !matches(match[1] as string)) {
      throw new FerryError(
        ErrorCode.Unauthorized,
        match?.[1]?.startsWith(GATEWAY_TOKEN_PREFIX) === true
          ? 'a gateway token opens /mcp only; the API takes the admin token'
          : 'missing or invalid token',
      )
    }
    await next()
  }
}

/**
 * Reads the body with the size limit applied while it streams in, straight from Node's request
 * when the app runs under @hono/node-server (much cheaper than a fetch Request's stream).
 */
async function readBody(c: Context): Promise<string> {
  const declared = Number(c.req.header('content-length') ?? 0)
  if (declared > MAX_BODY_BYTES) throw tooLarge()
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming
  if (incoming === undefined) {
    const text = await c.req.text()
    if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw tooLarge()
    return text
  }
  const chunks: Uint8Array[] = []
  let size = 0
  await readChunks(incoming, (chunk) => {
    size += chunk.byteLength
    chunks.push(chunk)
    return size <= MAX_BODY_BYTES
  })
  if (size > MAX_BODY_BYTES) throw tooLarge()
  return Buffer.concat(chunks).toString('utf8')
}

function tooLarge(): FerryError {
  return new FerryError(ErrorCode.PayloadTooLarge, `body larger than ${MAX_BODY_BYTES} bytes`)
}

/** Parses a JSON object body: 415 for another media type, 413 past the limit, 400 if malformed. */
export async function jsonBody(c: Context): Promise<Record<string, unknown>> {
  const type = c.req.header('content-type') ?? ''
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    throw new FerryError(
      ErrorCode.UnsupportedMediaType,
      'send the body as Content-Type: application/json',
    )
  }
  const text = await readBody(c)
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

/** Validates a parsed body against a zod schema; the first problem becomes a 400 naming its path. */
export function parseBody<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : ''
  throw new FerryError(ErrorCode.BadRequest, `${where}${issue?.message ?? 'invalid body'}`)
}
