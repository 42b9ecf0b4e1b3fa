// The questions waiting for the person, pinned below the transcript so they stay in reach however
// far it is scrolled. A question that appears takes focus (on the control its view marks) unless the
// person is typing elsewhere; then it waits, with a notice, for Alt+Q or a click. Its answers wake
// after the guard time (question-guard.ts). Once it closes, focus goes back where it was; Escape
// gives it back without answering.

import { useLayoutEffect, useRef } from 'preact/hooks'
import type { OpenQuestion } from '../transcript.js'
import { useShell } from '../store/shell-context.js'
import { announceQuestion, mayTakeFocus, offerSummon, useArmed } from './question-guard.js'
import { QUESTION_VIEWS } from './views.js'

function focusIn(bar: HTMLElement): void {
  const target = bar.querySelector<HTMLElement>('[data-question-focus]') ?? bar
  target.focus()
}

/** Focus is in the bar, or was in it and fell to the page when its control went away. */
function focusIsOurs(bar: HTMLElement): boolean {
  const active = document.activeElement
  return active === null || active === document.body || bar.contains(active)
}

const NOTICES: Record<OpenQuestion['kind'], string> = {
  confirmation: 'A confirmation is waiting: press Alt+Q to answer it.',
  input: 'A server’s question is waiting: press Alt+Q to answer it.',
}

export function QuestionBar() {
  const { store } = useShell()
  const { questions } = store
  const open = questions.open.value
  const shown = questions.shown.value
  const focusAsked = questions.focusAsked.value
  const armed = useArmed(shown?.id ?? null)
  const bar = useRef<HTMLDivElement>(null)
  // DOM bookkeeping, not state: the element to give focus back to, what was last shown, and the
  // notice of a question that did not take focus.
  const returnTo = useRef<HTMLElement | null>(null)
  const lastShown = useRef<string | undefined>(undefined)
  const lastAsked = useRef(focusAsked)
  const withdrawNotice = useRef<(() => void) | null>(null)
  const quiet = () => {
    withdrawNotice.current?.()
    withdrawNotice.current = null
  }

  useLayoutEffect(() => {
    const element = bar.current
    const before = lastShown.current
    lastShown.current = shown?.id
    const asked = lastAsked.current !== focusAsked
    lastAsked.current = focusAsked
    if (element === null) return
    if (shown === undefined) {
      quiet()
      if (before !== undefined && focusIsOurs(element)) giveBack()
      return
    }
    if (shown.id === before && !asked) return
    quiet()
    const active = document.activeElement
    if (active instanceof HTMLElement && active !== document.body && !element.contains(active)) {
      returnTo.current = active
    }
    // Asked for (Alt+Q, an Answer button), or the next one after a question answered here.
    const follows = before !== undefined && focusIsOurs(element)
    const appears =
      before === undefined && mayTakeFocus({ since: questions.startedHere(shown.callId) })
    if (asked || follows || appears) focusIn(element)
    else if (!element.contains(document.activeElement)) {
      withdrawNotice.current = announceQuestion(NOTICES[shown.kind])
    }
  }, [shown, focusAsked])

  const shownId = shown?.id
  useLayoutEffect(() => {
    if (shownId === undefined) return
    return offerSummon(() => questions.show(shownId))
  }, [shownId, questions])
  useLayoutEffect(() => quiet, [])

  const giveBack = () => {
    const target = returnTo.current
    returnTo.current = null
    if (target?.isConnected === true) target.focus()
    else document.querySelector<HTMLElement>('[data-testid="transcript"]')?.focus()
  }

  if (shown === undefined) return <div ref={bar} class="question-bar-empty" hidden />
  const View = QUESTION_VIEWS[shown.kind]
  const at = open.indexOf(shown)
  return (
    <section
      ref={bar}
      class="question-bar"
      data-testid="question-bar"
      data-armed={armed ? 'true' : 'false'}
      aria-label="Waiting for your answer"
      tabIndex={-1}
      onFocusIn={quiet}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return
        event.preventDefault()
        giveBack()
      }}
    >
      <p class="question-hint">
        Waiting for your answer. <kbd>Esc</kbd> leaves it for later; <kbd>Alt</kbd>+<kbd>Q</kbd>{' '}
        comes back.
      </p>
      {open.length > 1 && (
        <div class="question-count">
          <span data-testid="question-count">
            Question {at + 1} of {open.length}
          </span>
          <button
            type="button"
            disabled={at <= 0}
            onClick={() => questions.show(open[at - 1]?.id ?? shown.id)}
          >
            Previous
          </button>
          <button
            type="button"
            disabled={at >= open.length - 1}
            onClick={() => questions.show(open[at + 1]?.id ?? shown.id)}
          >
            Next
          </button>
        </div>
      )}
      <View key={shown.id} question={shown} armed={armed} />
    </section>
  )
}
