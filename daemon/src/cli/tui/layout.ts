// How the screen's rows are shared out: header, feed, the question that waits, prompt.

import type { InputRequestedEvent } from '../../protocol/index.js'
import { readForm } from '../input-form.js'
import { samplingLines } from '../input-view.js'

export const HEADER_ROWS = 1
/** The rule above the prompt, the prompt and its hint line. */
export const COMMAND_ROWS = 3
/** A bordered box of three lines. */
export const CONFIRMATION_ROWS = 5
/** The feed keeps at least this many rows while a question is shown. */
const MIN_FEED_ROWS = 3

/** Rows Ink may draw on: one is left free, since Ink clears the screen on every frame that fills it. */
export function screenRows(terminalRows: number): number {
  return Math.max(HEADER_ROWS + COMMAND_ROWS + 1, terminalRows - 1)
}

/** The feed's rows, with `promptRows` taken by the question that waits (0 for none). */
export function feedRows(terminalRows: number, promptRows: number): number {
  const rest = screenRows(terminalRows) - HEADER_ROWS - COMMAND_ROWS
  return Math.max(1, rest - promptRows)
}

/**
 * The rows a question's box takes and how many of them are its body (form fields, or the lines of
 * a sampling request), which scrolls when there are more: the border and the box's own lines
 * (header, detail or reply, status, keys) take the rest.
 */
export function inputRows(
  input: InputRequestedEvent,
  terminalRows: number,
): { rows: number; body: number } {
  const room = screenRows(terminalRows) - HEADER_ROWS - COMMAND_ROWS - MIN_FEED_ROWS
  if (input.kind === 'url') return { rows: 7, body: 0 }
  const frame = input.kind === 'form' ? 5 : 6
  const wanted =
    input.kind === 'form'
      ? readForm(input.requestedSchema).fields.length
      : input.sampling === undefined
        ? 0
        : samplingLines(input.sampling).length
  const body = Math.max(1, Math.min(wanted, room - frame))
  return { rows: body + frame, body }
}
