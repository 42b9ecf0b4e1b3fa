// Completion suggestions for one field as the person types: asked for after a pause in typing,
// and an answer counts only while the field still holds the value it was asked for, so a slow
// answer for an earlier prefix never replaces a newer one.

import { signal, type ReadonlySignal } from '@preact/signals'
import type { CompletionResponse } from '../../../daemon/src/protocol/index.js'

/** Typing pause after which the server is asked. */
export const COMPLETION_DELAY_MS = 200
/** At most this many suggestions are shown (MCP allows a server 100). */
export const MAX_SUGGESTIONS = 20

export type AskCompletion = (value: string) => Promise<CompletionResponse>

export interface Completer {
  /** The suggestions for the value the field holds now; empty while none are known. */
  readonly suggestions: ReadonlySignal<string[]>
  /** The field now holds `value`; suggestions for it are asked for after the pause. */
  typed(value: string): void
  /** Forgets the suggestions and any answer still coming (the field lost focus, or was filled). */
  clear(): void
}

export function createCompleter(ask: AskCompletion, delayMs = COMPLETION_DELAY_MS): Completer {
  const suggestions = signal<string[]>([])
  let generation = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  const clear = () => {
    generation += 1
    clearTimeout(timer)
    timer = undefined
    if (suggestions.peek().length > 0) suggestions.value = []
  }
  return {
    suggestions,
    typed(value) {
      clear()
      const asked = generation
      timer = setTimeout(() => {
        timer = undefined
        ask(value).then(
          (answer) => {
            if (asked !== generation) return
            const values = Array.isArray(answer.values) ? answer.values : []
            suggestions.value = values
              .filter((item): item is string => typeof item === 'string' && item !== value)
              .slice(0, MAX_SUGGESTIONS)
          },
          // A server that cannot complete simply offers nothing; the field still takes any value.
          () => undefined,
        )
      }, delayMs)
    },
    clear,
  }
}
