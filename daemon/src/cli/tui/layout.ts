// How the screen's rows are shared out: header, feed, confirmation, prompt.

export const HEADER_ROWS = 1
/** The rule above the prompt, the prompt and its hint line. */
export const COMMAND_ROWS = 3
/** A bordered box of three lines. */
export const CONFIRMATION_ROWS = 5

/** Rows Ink may draw on: one is left free, since Ink clears the screen on every frame that fills it. */
export function screenRows(terminalRows: number): number {
  return Math.max(HEADER_ROWS + COMMAND_ROWS + 1, terminalRows - 1)
}

export function feedRows(terminalRows: number, asking: boolean): number {
  const rest = screenRows(terminalRows) - HEADER_ROWS - COMMAND_ROWS
  return Math.max(1, rest - (asking ? CONFIRMATION_ROWS : 0))
}
