// The questions waiting for the person (read from the transcript model) and which one the
// question bar shows. `show` brings one forward and asks the bar to focus it, from wherever the
// person is (a call card's "Answer" button, a keyboard shortcut). It also remembers the call this
// tab started last, whose question the person is expecting.

import { computed, signal, type ReadonlySignal, type Signal } from '@preact/signals'
import type { OpenQuestion } from '../transcript.js'
import type { TranscriptStore } from './transcript-store.js'

export interface QuestionStore {
  /** Oldest first; a new list only when a question opens or closes. */
  open: ReadonlySignal<readonly OpenQuestion[]>
  /** The question the bar shows: the one picked while it is open, else the oldest. */
  shown: ReadonlySignal<OpenQuestion | undefined>
  /** Bumped by `show`: the bar moves focus to the question it shows. */
  focusAsked: Signal<number>
  show(id: string): void
  /** Notes that this tab started `callId` now (`performance.now()`). */
  noteStarted(callId: string): void
  /** When this tab started `callId`, if it is the call it started last. */
  startedHere(callId: string | null): number | undefined
}

export function createQuestionStore(transcript: TranscriptStore): QuestionStore {
  const open = computed(() => {
    void transcript.frame.value
    return transcript.model.value.openQuestions()
  })
  const picked = signal<string | null>(null)
  const focusAsked = signal(0)
  let started: { callId: string; at: number } | undefined
  return {
    open,
    shown: computed(() => {
      const list = open.value
      return list.find((question) => question.id === picked.value) ?? list[0]
    }),
    focusAsked,
    show(id) {
      picked.value = id
      focusAsked.value += 1
    },
    noteStarted(callId) {
      started = { callId, at: performance.now() }
    },
    startedHere(callId) {
      return started !== undefined && started.callId === callId ? started.at : undefined
    },
  }
}
