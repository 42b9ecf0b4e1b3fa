// Parses the JSON arguments of `ferry call`, with a message that shows what to type instead.

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
