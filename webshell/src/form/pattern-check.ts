// Checks a form's patterns before it is sent: each in the pattern worker under a time limit.
// A pattern that does not answer in time is not checked here (the server validates); verdicts
// are remembered, so submitting the same values again does not wait again.

import { TimedWorker } from '../timed-worker.js'
import type { PatternOutcome, PatternVerdict } from './pattern.js'

export const PATTERN_TIME_LIMIT_MS = 500
export const PATTERN_NOT_CHECKED = 'pattern not checked here; the server validates'

export interface PatternCheck {
  path: string
  pattern: string
  value: string
}

const worker = new TimedWorker<{ pattern: string; value: string }, PatternVerdict>(
  () => new Worker(new URL('./pattern-worker.ts', import.meta.url), { type: 'module' }),
)
const verdicts = new Map<string, PatternOutcome>()
const REMEMBERED = 500

function keyOf(check: { pattern: string; value: string }): string {
  return `${check.pattern.length}:${check.pattern}${check.value}`
}

/** The worker loads while the person fills the form in. */
export function warmPatterns(): void {
  worker.warm()
}

/** Looks up the outcome of a check made by checkPatterns. */
export function outcomeOf(pattern: string, value: string): PatternOutcome {
  return verdicts.get(keyOf({ pattern, value })) ?? 'unchecked'
}

export async function checkPatterns(checks: readonly PatternCheck[]): Promise<void> {
  await Promise.all(
    checks.map(async (check) => {
      const key = keyOf(check)
      if (verdicts.has(key)) return
      const outcome = await worker.run(
        { pattern: check.pattern, value: check.value },
        PATTERN_TIME_LIMIT_MS,
      )
      verdicts.set(key, outcome?.ok === true ? outcome.value : 'unchecked')
      for (const oldest of verdicts.keys()) {
        if (verdicts.size <= REMEMBERED) break
        verdicts.delete(oldest)
      }
    }),
  )
}
