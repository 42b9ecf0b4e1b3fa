// The prompt's one-line editor: text with a cursor, and a history walked with the arrow keys.
// Pure: each key gives the next state.

export interface LineState {
  text: string
  /** Index into `text` (in UTF-16 units, kept on code point boundaries). */
  cursor: number
  /** Lines entered earlier, oldest first. */
  history: string[]
  /** Position in `history` while walking it; `history.length` means the line being typed. */
  historyIndex: number
  /** The line being typed, kept while walking the history. */
  draft: string
}

export type EditAction =
  | { kind: 'insert'; text: string }
  | { kind: 'backspace' }
  | { kind: 'delete' }
  | { kind: 'left' }
  | { kind: 'right' }
  | { kind: 'home' }
  | { kind: 'end' }
  | { kind: 'up' }
  | { kind: 'down' }
  | { kind: 'clear' }
  | { kind: 'set'; text: string }

/** The keys the editor reads, as Ink's `useInput` reports them. */
export interface EditKey {
  leftArrow?: boolean
  rightArrow?: boolean
  upArrow?: boolean
  downArrow?: boolean
  home?: boolean
  end?: boolean
  backspace?: boolean
  delete?: boolean
  ctrl?: boolean
  meta?: boolean
  return?: boolean
  tab?: boolean
  escape?: boolean
}

const HISTORY_LIMIT = 100

export type TypedKey =
  | { kind: 'text'; text: string }
  | { kind: 'enter' }
  | { kind: 'tab' }
  | { kind: 'backspace' }

/**
 * Splits input that arrived in one read (a paste, or keys typed faster than they are read) into
 * text and the Enter, Tab and Backspace keys inside it, which Ink reports only when they come alone.
 */
export function splitTyped(input: string): TypedKey[] {
  const keys: TypedKey[] = []
  for (const part of input.split(/(\r\n|[\r\n\t\x7f\b])/)) {
    if (part === '') continue
    if (part === '\t') keys.push({ kind: 'tab' })
    else if (part === '\x7f' || part === '\b') keys.push({ kind: 'backspace' })
    else if (/^[\r\n]+$/.test(part)) keys.push({ kind: 'enter' })
    else keys.push({ kind: 'text', text: part })
  }
  return keys
}

/** The edit a key makes, or undefined for keys the editor leaves to others (Enter, Tab, Ctrl-C). */
export function actionForKey(input: string, key: EditKey): EditAction | undefined {
  if (key.leftArrow) return { kind: 'left' }
  if (key.rightArrow) return { kind: 'right' }
  if (key.upArrow) return { kind: 'up' }
  if (key.downArrow) return { kind: 'down' }
  if (key.home) return { kind: 'home' }
  if (key.end) return { kind: 'end' }
  // Most terminals send DEL (0x7f) for Backspace, which Ink reports as `delete`.
  if (key.backspace || key.delete) return { kind: 'backspace' }
  if (key.ctrl) {
    if (input === 'a') return { kind: 'home' }
    if (input === 'e') return { kind: 'end' }
    if (input === 'u') return { kind: 'clear' }
    if (input === 'd') return { kind: 'delete' }
    return undefined
  }
  if (key.return || key.tab || key.escape || key.meta || input === '') return undefined
  return { kind: 'insert', text: input }
}

export function emptyLine(): LineState {
  return { text: '', cursor: 0, history: [], historyIndex: 0, draft: '' }
}

function charBefore(text: string, index: number): number {
  if (index <= 0) return 0
  const code = text.charCodeAt(index - 1)
  return code >= 0xdc00 && code <= 0xdfff && index >= 2 ? index - 2 : index - 1
}

function charAfter(text: string, index: number): number {
  if (index >= text.length) return text.length
  const code = text.charCodeAt(index)
  return code >= 0xd800 && code <= 0xdbff ? Math.min(text.length, index + 2) : index + 1
}

function withText(state: LineState, text: string): LineState {
  return { ...state, text, cursor: text.length }
}

export function editLine(state: LineState, action: EditAction): LineState {
  const { text, cursor } = state
  switch (action.kind) {
    case 'insert': {
      // Pasted text may carry newlines; the prompt is one line.
      const clean = action.text.replace(/[\r\n]+/g, ' ')
      return {
        ...state,
        text: text.slice(0, cursor) + clean + text.slice(cursor),
        cursor: cursor + clean.length,
      }
    }
    case 'backspace': {
      const start = charBefore(text, cursor)
      return { ...state, text: text.slice(0, start) + text.slice(cursor), cursor: start }
    }
    case 'delete':
      return { ...state, text: text.slice(0, cursor) + text.slice(charAfter(text, cursor)) }
    case 'left':
      return { ...state, cursor: charBefore(text, cursor) }
    case 'right':
      return { ...state, cursor: charAfter(text, cursor) }
    case 'home':
      return { ...state, cursor: 0 }
    case 'end':
      return { ...state, cursor: text.length }
    case 'clear':
      return { ...state, text: '', cursor: 0, historyIndex: state.history.length }
    case 'set':
      return withText(state, action.text)
    case 'up': {
      if (state.historyIndex === 0) return state
      const draft = state.historyIndex === state.history.length ? text : state.draft
      const index = state.historyIndex - 1
      return { ...withText(state, state.history[index] ?? ''), historyIndex: index, draft }
    }
    case 'down': {
      if (state.historyIndex >= state.history.length) return state
      const index = state.historyIndex + 1
      const next = index === state.history.length ? state.draft : (state.history[index] ?? '')
      return { ...withText(state, next), historyIndex: index }
    }
  }
}

/** The line entered: it joins the history (once, if it repeats the last) and the prompt empties. */
export function submitLine(state: LineState): { line: string; state: LineState } {
  const line = state.text
  const history =
    line.trim() === '' || state.history.at(-1) === line
      ? state.history
      : [...state.history, line].slice(-HISTORY_LIMIT)
  return {
    line,
    state: { text: '', cursor: 0, history, historyIndex: history.length, draft: '' },
  }
}

/** The part of the line to draw in `width` cells so that the cursor stays in view. */
export function viewport(
  state: Pick<LineState, 'text' | 'cursor'>,
  width: number,
): { before: string; at: string; after: string } {
  const { text, cursor } = state
  const room = Math.max(1, width)
  const start = Math.max(0, cursor - room + 1)
  const end = Math.min(text.length, start + room)
  const at = text.slice(cursor, charAfter(text, cursor)) || ' '
  return {
    before: text.slice(start, cursor),
    at,
    after: text.slice(cursor + at.length, end),
  }
}
