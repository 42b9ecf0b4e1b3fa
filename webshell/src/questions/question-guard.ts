// What keeps a question from taking keystrokes meant for something else, for every question the
// WebShell asks (confirmations, servers' inputs, an App's questions): how long its answers stay
// asleep after it is shown.

import { useLayoutEffect, useState } from 'preact/hooks'

/** How long a question's answers stay asleep after it is shown, as browsers do for their prompts. */
export const QUESTION_GUARD_MS = 600

/**
 * Whether the answers to the question `key` names are awake: false from when it is shown until
 * `QUESTION_GUARD_MS` later, and again whenever another question (or none) takes its place.
 */
export function useArmed(key: string | object | null): boolean {
  const [armedFor, setArmedFor] = useState<string | object | null>(null)
  useLayoutEffect(() => {
    setArmedFor(null)
    if (key === null) return
    const timer = setTimeout(() => setArmedFor(key), QUESTION_GUARD_MS)
    return () => clearTimeout(timer)
  }, [key])
  return key !== null && armedFor === key
}
