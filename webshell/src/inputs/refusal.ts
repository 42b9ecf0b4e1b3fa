// Reads the daemon's refusal of an answer (`invalid_input_answer`, whose message names the field
// that does not fit) into an error placed on that field of the form.

import type { FieldError } from '../form/validate.js'

/**
 * The refusal as a form error: on the field its message names (the earliest mention of a field
 * key, as a whole word), or on the form as a whole when it names none.
 */
export function refusalError(message: string, keys: readonly string[]): FieldError {
  let best: { key: string; at: number } | undefined
  for (const key of keys) {
    const escaped = key.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')
    const found = new RegExp(`(^|[^\\w-])${escaped}($|[^\\w-])`, 'u').exec(message)
    if (found === null) continue
    const at = found.index + (found[1]?.length ?? 0)
    if (best === undefined || at < best.at || (at === best.at && key.length > best.key.length)) {
      best = { key, at }
    }
  }
  if (best === undefined) return { path: '', message }
  // The message already says which field; the form shows it beside that field, prefixed once.
  const rest = message
    .slice(best.at + best.key.length)
    .replace(/^[`'"]?\s*[:,-]?\s*/u, '')
    .trim()
  return { path: best.key, message: rest === '' ? message : rest }
}
