// The bearer token that every API route and the stream require: 32 random bytes, base64url. A
// restarted daemon may take over the previous one's token, but only one of exactly this shape.

import { randomBytes } from 'node:crypto'

const TOKEN_BYTES = 32

export function newToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url')
}

/**
 * True for the canonical base64url form of 32 bytes (43 characters). Decoding and encoding again
 * rejects characters outside the alphabet, padding and stray low bits in the last character, so a
 * hand-edited or truncated token is never reused.
 */
export function isWellFormedToken(value: unknown): value is string {
  if (typeof value !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(value)) return false
  const bytes = Buffer.from(value, 'base64url')
  return bytes.length === TOKEN_BYTES && bytes.toString('base64url') === value
}
