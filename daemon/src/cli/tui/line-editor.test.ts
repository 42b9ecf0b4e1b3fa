import { describe, expect, it } from 'vitest'
import {
  actionForKey,
  editLine,
  emptyLine,
  splitTyped,
  submitLine,
  viewport,
  type EditAction,
  type LineState,
} from './line-editor.js'

function apply(state: LineState, ...actions: EditAction[]): LineState {
  return actions.reduce(editLine, state)
}

describe('editLine', () => {
  it('inserts at the cursor, moves, and deletes on either side', () => {
    const state = apply(
      emptyLine(),
      { kind: 'insert', text: 'helo' },
      { kind: 'left' },
      { kind: 'insert', text: 'l' },
      { kind: 'home' },
      { kind: 'delete' },
      { kind: 'end' },
      { kind: 'backspace' },
    )
    expect(state).toMatchObject({ text: 'ell', cursor: 3 })
  })

  it('treats a surrogate pair as one character', () => {
    const state = apply(emptyLine(), { kind: 'insert', text: 'a😀' }, { kind: 'backspace' })
    expect(state).toMatchObject({ text: 'a', cursor: 1 })
  })

  it('turns pasted newlines into spaces', () => {
    expect(apply(emptyLine(), { kind: 'insert', text: 'a\nb' }).text).toBe('a b')
  })

  it('walks the history with up and down and gives back the draft', () => {
    let state = emptyLine()
    for (const line of ['/tools', '/servers']) {
      state = submitLine(apply(state, { kind: 'insert', text: line })).state
    }
    state = apply(state, { kind: 'insert', text: '/he' }, { kind: 'up' })
    expect(state.text).toBe('/servers')
    state = apply(state, { kind: 'up' }, { kind: 'up' })
    expect(state.text).toBe('/tools')
    state = apply(state, { kind: 'down' }, { kind: 'down' })
    expect(state).toMatchObject({ text: '/he', cursor: 3 })
  })

  it('does not repeat a line in the history or keep blank ones', () => {
    let state = emptyLine()
    for (const line of ['/help', '/help', '  ']) {
      state = submitLine(apply(state, { kind: 'insert', text: line })).state
    }
    expect(state.history).toEqual(['/help'])
  })
})

describe('actionForKey', () => {
  it('maps arrows, Backspace (sent as DEL) and Ctrl shortcuts, and leaves Enter and Tab alone', () => {
    expect(actionForKey('', { leftArrow: true })).toEqual({ kind: 'left' })
    expect(actionForKey('', { delete: true })).toEqual({ kind: 'backspace' })
    expect(actionForKey('u', { ctrl: true })).toEqual({ kind: 'clear' })
    expect(actionForKey('c', { ctrl: true })).toBeUndefined()
    expect(actionForKey('', { return: true })).toBeUndefined()
    expect(actionForKey('\t', { tab: true })).toBeUndefined()
    expect(actionForKey('x', {})).toEqual({ kind: 'insert', text: 'x' })
  })
})

describe('viewport', () => {
  it('shows the whole line when it fits, with the cursor cell after the end', () => {
    expect(viewport({ text: 'abc', cursor: 3 }, 10)).toEqual({ before: 'abc', at: ' ', after: '' })
    expect(viewport({ text: 'abc', cursor: 1 }, 10)).toEqual({ before: 'a', at: 'b', after: 'c' })
  })

  it('scrolls a long line so the cursor stays in view', () => {
    const view = viewport({ text: 'abcdefghij', cursor: 10 }, 5)
    expect(view).toEqual({ before: 'ghij', at: ' ', after: '' })
  })
})

describe('splitTyped', () => {
  it('finds Enter, Tab and Backspace inside text that arrived in one read', () => {
    expect(splitTyped('/call mcp_fx_sl\t')).toEqual([
      { kind: 'text', text: '/call mcp_fx_sl' },
      { kind: 'tab' },
    ])
    expect(splitTyped('/help\r\n/tools\rab\x7f')).toEqual([
      { kind: 'text', text: '/help' },
      { kind: 'enter' },
      { kind: 'text', text: '/tools' },
      { kind: 'enter' },
      { kind: 'text', text: 'ab' },
      { kind: 'backspace' },
    ])
  })
})
