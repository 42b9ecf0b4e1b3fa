// The keys that answer a confirmation on the attach screen, as in `ferry call`'s own prompt.

import type { ConfirmationOutcome } from '../../protocol/index.js'

export const OUTCOME_KEYS = [
  { key: 'o', outcome: 'allow_once', label: 'allow once' },
  { key: 't', outcome: 'allow_tool', label: 'always this tool' },
  { key: 's', outcome: 'allow_server', label: 'always this server' },
  { key: 'd', outcome: 'deny', label: 'deny' },
] as const satisfies ReadonlyArray<{ key: string; outcome: ConfirmationOutcome; label: string }>

export function outcomeForKey(input: string): ConfirmationOutcome | undefined {
  return OUTCOME_KEYS.find((choice) => choice.key === input.toLowerCase())?.outcome
}
