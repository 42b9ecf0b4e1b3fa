import { describe, expect, it } from 'vitest'
import { focusPlace, mayTakeFocusAt, TYPING_WINDOW_MS, type Moment } from './question-guard.js'

/** Just what `focusPlace` reads of an element. */
function element(tagName: string, extra: Record<string, unknown> = {}): Element {
  return { tagName, ...extra } as unknown as Element
}

describe('where focus is when a question appears', () => {
  it('counts text fields, text areas, selects and editable content as typing', () => {
    for (const type of ['text', 'search', 'number', 'email', 'password', 'date']) {
      expect(focusPlace(element('INPUT', { type }))).toBe('text')
    }
    expect(focusPlace(element('TEXTAREA'))).toBe('text')
    expect(focusPlace(element('SELECT'))).toBe('text')
    expect(focusPlace(element('DIV', { isContentEditable: true }))).toBe('text')
  })

  it('does not count buttons, check boxes or the page itself', () => {
    for (const type of ['button', 'submit', 'checkbox', 'radio', 'range']) {
      expect(focusPlace(element('INPUT', { type }))).toBe('elsewhere')
    }
    expect(focusPlace(element('BUTTON'))).toBe('elsewhere')
    expect(focusPlace(element('DIV', { isContentEditable: false }))).toBe('elsewhere')
    expect(focusPlace(null)).toBe('elsewhere')
  })

  it('counts a frame, whose keys the page cannot see, unless it is inside the asker', () => {
    const frame = element('IFRAME')
    const own = { contains: (node: Element) => node === frame } as unknown as Element
    const other = { contains: () => false } as unknown as Element
    expect(focusPlace(frame)).toBe('frame')
    expect(focusPlace(frame, other)).toBe('frame')
    expect(focusPlace(frame, own)).toBe('elsewhere')
  })
})

describe('whether a question may take focus', () => {
  const at = (moment: Partial<Moment>): boolean =>
    mayTakeFocusAt({
      focus: 'elsewhere',
      lastKeyAt: Number.NEGATIVE_INFINITY,
      now: 10_000,
      ...moment,
    })

  it('takes it when nothing is being typed', () => {
    expect(at({})).toBe(true)
    expect(at({ lastKeyAt: 10_000 - TYPING_WINDOW_MS })).toBe(true)
  })

  it('leaves it while focus is in a text field or a frame, however long ago the last key was', () => {
    expect(at({ focus: 'text' })).toBe(false)
    expect(at({ focus: 'frame' })).toBe(false)
  })

  it('leaves it for the typing window after a key', () => {
    expect(at({ lastKeyAt: 10_000 })).toBe(false)
    expect(at({ lastKeyAt: 10_000 - TYPING_WINDOW_MS + 1 })).toBe(false)
  })

  it('does not count the key that started the call this tab made, but counts any key after it', () => {
    expect(at({ lastKeyAt: 9_990, since: 9_995 })).toBe(true)
    expect(at({ lastKeyAt: 9_998, since: 9_995 })).toBe(false)
    expect(at({ focus: 'text', lastKeyAt: 9_990, since: 9_995 })).toBe(false)
  })
})
