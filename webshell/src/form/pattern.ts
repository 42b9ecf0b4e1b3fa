// Matching a schema `pattern` (ECMA-262, as JSON Schema says) against a value. It may backtrack
// for as long as the pattern's author likes, so the form runs it only in the pattern worker.

/** `invalid`: the pattern does not compile, so it is skipped. */
export type PatternVerdict = 'match' | 'mismatch' | 'invalid'

/** `unchecked`: no verdict within the time limit (or the worker could not run). */
export type PatternOutcome = PatternVerdict | 'unchecked'

export function matchPattern(pattern: string, value: string): PatternVerdict {
  let compiled: RegExp
  try {
    compiled = new RegExp(pattern, 'u')
  } catch {
    return 'invalid'
  }
  return compiled.test(value) ? 'match' : 'mismatch'
}
