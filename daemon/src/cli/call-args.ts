// Parses the JSON arguments of `ferry call`, with a message that shows what to type instead, and
// keeps their text as typed for the daemon, whose argument check judges them.

import { ErrorCode, FerryError } from '../errors.js'

/** `example` is the object the messages show, e.g. `{"text":"hi"}`. */
export function parseCallArgs(
  raw: string | undefined,
  example = '{"text":"hi"}',
): Record<string, unknown> {
  if (raw === undefined || raw.trim() === '') return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch (error) {
    throw new FerryError(
      ErrorCode.BadRequest,
      `arguments are not valid JSON (${(error as Error).message}); pass an object such as '${example}'`,
    )
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new FerryError(
      ErrorCode.BadRequest,
      `arguments must be a JSON object such as '${example}'`,
    )
  }
  return parsed as Record<string, unknown>
}

/**
 * The arguments' JSON text as typed (`{}` when none), once it is known to be a JSON object: sent
 * as it is, so arguments nested deeper than a serialiser could write reach the daemon's check.
 */
export function callArgsText(raw: string | undefined): string {
  parseCallArgs(raw)
  return raw === undefined || raw.trim() === '' ? '{}' : raw.trim()
}

/** All of `input` (stdin, for `ferry call <tool> -`) as text. */
export async function readAll(input: AsyncIterable<Buffer | string>): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of input) chunks.push(Buffer.from(chunk))
  return Buffer.concat(chunks).toString('utf8')
}
