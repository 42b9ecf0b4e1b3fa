// What keeps a question from taking keystrokes meant for something else, for every question the
// WebShell asks (confirmations, servers' inputs, an App's questions): whether one that appears may
// take focus, how long its answers stay asleep, Alt+Q to reach it, and the notice of one waiting.

import { signal } from '@preact/signals'
import { useLayoutEffect, useState } from 'preact/hooks'

/** How long a question's answers stay asleep after it is shown, as browsers do for their prompts. */
export const QUESTION_GUARD_MS = 600
/** A key pressed this recently means the person is typing, and a new question leaves focus alone. */
export const TYPING_WINDOW_MS = 1000

/** Where focus is when a question appears: in something that takes typing, in a frame, or neither. */
export type FocusPlace = 'text' | 'frame' | 'elsewhere'

/** Input types whose keys do not type text. */
const NOT_TYPED = new Set([
  'button',
  'checkbox',
  'color',
  'file',
  'hidden',
  'image',
  'radio',
  'range',
  'reset',
  'submit',
])

/**
 * Where `active` is. A frame's keys never reach this page, so a frame counts as typing unless it
 * is inside `own` (an App's question may take focus from that App's own frame).
 */
export function focusPlace(active: Element | null, own?: Element): FocusPlace {
  if (active === null) return 'elsewhere'
  const tag = active.tagName
  if (tag === 'IFRAME') return own?.contains(active) === true ? 'elsewhere' : 'frame'
  if (tag === 'TEXTAREA' || tag === 'SELECT') return 'text'
  if (tag === 'INPUT')
    return NOT_TYPED.has((active as HTMLInputElement).type) ? 'elsewhere' : 'text'
  return (active as HTMLElement).isContentEditable === true ? 'text' : 'elsewhere'
}

export interface Moment {
  focus: FocusPlace
  /** When the person last pressed a key on this page (`performance.now()`); -Infinity if never. */
  lastKeyAt: number
  /** When this tab started the question's call: the keys that started it do not count. */
  since?: number
  now: number
}

/** Whether a question appearing at `moment` may take focus: the person is not typing elsewhere. */
export function mayTakeFocusAt(moment: Moment): boolean {
  if (moment.focus !== 'elsewhere') return false
  if (moment.since !== undefined && moment.lastKeyAt <= moment.since) return true
  return moment.now - moment.lastKeyAt >= TYPING_WINDOW_MS
}

let lastKeyAt = Number.NEGATIVE_INFINITY
/** Each waiting question's way to bring focus to it, newest last. */
const waiting: (() => void)[] = []

function isSummon(event: KeyboardEvent): boolean {
  return event.altKey && !event.ctrlKey && !event.metaKey && event.code === 'KeyQ'
}

const MODIFIERS = new Set(['Alt', 'AltGraph', 'Control', 'Meta', 'Shift'])

/** Notes the person's keys on `doc` and answers Alt+Q; returns what stops both. */
export function watchQuestionKeys(doc: Document): () => void {
  // Captured, so a key is noted even when what it reached stops it.
  const note = (event: KeyboardEvent) => {
    if (MODIFIERS.has(event.key) || isSummon(event)) return
    lastKeyAt = performance.now()
  }
  const summon = (event: KeyboardEvent) => {
    const newest = waiting.at(-1)
    if (!isSummon(event) || newest === undefined) return
    event.preventDefault()
    newest()
  }
  doc.addEventListener('keydown', note, true)
  doc.addEventListener('keydown', summon)
  return () => {
    doc.removeEventListener('keydown', note, true)
    doc.removeEventListener('keydown', summon)
  }
}

/** Whether a question appearing now may take focus; `since` and `own` as for `Moment` and `focusPlace`. */
export function mayTakeFocus(options: { since?: number; own?: Element } = {}): boolean {
  return mayTakeFocusAt({
    focus: focusPlace(document.activeElement, options.own),
    lastKeyAt,
    since: options.since,
    now: performance.now(),
  })
}

/** Lets Alt+Q bring focus to a waiting question through `summon`; returns its withdrawal. */
export function offerSummon(summon: () => void): () => void {
  waiting.push(summon)
  return () => {
    const at = waiting.lastIndexOf(summon)
    if (at >= 0) waiting.splice(at, 1)
  }
}

/** What the notice of a waiting question says, shown and read out by `QuestionNotice`. */
export const questionNotice = signal<{ text: string } | null>(null)

/** Says that a question waits; returns what takes the notice back (if it is still the one shown). */
export function announceQuestion(text: string): () => void {
  const notice = { text }
  questionNotice.value = notice
  return () => {
    if (questionNotice.peek() === notice) questionNotice.value = null
  }
}

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
