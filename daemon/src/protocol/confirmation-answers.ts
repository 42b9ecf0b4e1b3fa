// The four answers to a confirmation as every client offers them: the key that gives each (the
// WebShell, the attach screen and `ferry call`'s prompt alike), its label, and how it reads once
// given. Holds no zod, so the WebShell imports it as a value.

import type { ConfirmationOutcome } from './events.js'

export interface ConfirmationAnswer {
  outcome: ConfirmationOutcome
  key: string
  label: string
  said: string
}

export const CONFIRMATION_ANSWERS: readonly ConfirmationAnswer[] = [
  { outcome: 'allow_once', key: 'a', label: 'Allow once', said: 'allowed once' },
  {
    outcome: 'allow_tool',
    key: 't',
    label: 'Always allow this tool',
    said: 'always allowed this tool',
  },
  {
    outcome: 'allow_server',
    key: 's',
    label: 'Always allow this server',
    said: 'always allowed this server',
  },
  { outcome: 'deny', key: 'd', label: 'Deny', said: 'denied' },
]

/** The answer a key gives, in either case; undefined for any other key. */
export function answerForKey(key: string): ConfirmationAnswer | undefined {
  return CONFIRMATION_ANSWERS.find((answer) => answer.key === key.toLowerCase())
}

/** How an answer reads once given: `allowed once`, `denied`, … */
export function answerSaid(outcome: ConfirmationOutcome): string {
  return CONFIRMATION_ANSWERS.find((answer) => answer.outcome === outcome)?.said ?? outcome
}
