// The questions waiting for the person, pinned below the transcript so they stay in reach however
// far it is scrolled. A question that appears takes focus (on the control its view marks), its
// answers wake after the guard time (question-guard.ts) and, once it closes, focus goes back where
// it was; Escape gives it back without answering, and Alt+Q brings it to the question again from
// anywhere on the page.

import { useEffect, useLayoutEffect, useRef } from 'preact/hooks'
import { useShell } from '../store/shell-context.js'
import { useArmed } from './question-guard.js'
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

export function QuestionBar() {
  const { store } = useShell()
  const { questions } = store
  const open = questions.open.value
  const shown = questions.shown.value
  const focusAsked = questions.focusAsked.value
  const armed = useArmed(shown?.id ?? null)
  const bar = useRef<HTMLDivElement>(null)
  // DOM bookkeeping, not state: the element to give focus back to, and what was last shown.
  const returnTo = useRef<HTMLElement | null>(null)
  const lastShown = useRef<string | undefined>(undefined)
  const lastAsked = useRef(focusAsked)

  useLayoutEffect(() => {
    const element = bar.current
    const before = lastShown.current
    lastShown.current = shown?.id
    const asked = lastAsked.current !== focusAsked
    lastAsked.current = focusAsked
    if (element === null) return
    if (shown === undefined) {
      if (before !== undefined && focusIsOurs(element)) giveBack()
      return
    }
    if (shown.id === before && !asked) return
    const active = document.activeElement
    if (active instanceof HTMLElement && active !== document.body && !element.contains(active)) {
      returnTo.current = active
    }
    if (before === undefined || asked || focusIsOurs(element)) focusIn(element)
  }, [shown, focusAsked])

  const shownId = shown?.id
  useEffect(() => {
    if (shownId === undefined) return
    const onKey = (event: KeyboardEvent) => {
      if (!event.altKey || event.ctrlKey || event.metaKey || event.code !== 'KeyQ') return
      event.preventDefault()
      questions.show(shownId)
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [shownId, questions])

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
