import { describe, expect, it } from 'vitest'
import { readForm } from '../input-form.js'
import {
  createFormEditor,
  pressFormKey,
  pressFormKeys,
  refuseForm,
  type FormEditor,
  type FormKey,
} from './form-editor.js'

const { fields } = readForm({
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name' },
    age: { type: 'integer', minimum: 1, default: 42 },
    agree: { type: 'boolean' },
    hero: {
      type: 'string',
      oneOf: [
        { const: 'h1', title: 'Superman' },
        { const: 'h2', title: 'Wonder Woman' },
      ],
    },
    fish: {
      type: 'array',
      items: {
        anyOf: [
          { const: 'f1', title: 'Tuna' },
          { const: 'f2', title: 'Salmon' },
          { const: 'f3', title: 'Trout' },
        ],
      },
      default: ['f3'],
    },
  },
  required: ['name'],
})

/** Presses each key in turn; a string is typed text, an object a key as Ink reports it. */
function press(editor: FormEditor, ...keys: (string | FormKey)[]) {
  let state = editor
  let answer
  for (const key of keys) {
    const step =
      typeof key === 'string' ? pressFormKeys(state, key, {}) : pressFormKey(state, '', key)
    state = step.editor
    answer = step.answer ?? answer
  }
  return { editor: state, answer }
}

const next: FormKey = { tab: true }

describe('the attach screen form', () => {
  it('starts on the first field with the defaults filled in', () => {
    const editor = createFormEditor(fields)
    expect(editor.focus).toBe(0)
    expect(editor.texts.age?.text).toBe('42')
    expect(editor.values.fish).toEqual(['f3'])
    expect(editor.values.hero).toBeUndefined()
  })

  it('sends typed, picked and toggled values as the content of an accept', () => {
    const { answer } = press(
      createFormEditor(fields),
      'Ada',
      next,
      { backspace: true },
      { backspace: true },
      '36',
      next,
      'y',
      next,
      { rightArrow: true },
      { rightArrow: true },
      next,
      '1',
      { return: true },
    )
    expect(answer).toEqual({
      action: 'accept',
      content: { name: 'Ada', age: 36, agree: true, hero: 'h2', fish: ['f1', 'f3'] },
    })
  })

  it('moves between fields with Tab, Shift-Tab and the arrows, wrapping around', () => {
    const editor = createFormEditor(fields)
    expect(press(editor, { upArrow: true }).editor.focus).toBe(4)
    expect(press(editor, { downArrow: true }, next).editor.focus).toBe(2)
    expect(press(editor, { tab: true, shift: true }).editor.focus).toBe(4)
  })

  it('toggles options of a multi-select under a cursor moved with the arrows', () => {
    const at = press(createFormEditor(fields), next, next, next, next).editor
    const toggled = press(at, { rightArrow: true }, ' ', { leftArrow: true }, ' ').editor
    expect(toggled.values.fish).toEqual(['f1', 'f2', 'f3'])
    expect(press(toggled, '3').editor.values.fish).toEqual(['f1', 'f2'])
    expect(press(toggled, { backspace: true }).editor.values.fish).toBeUndefined()
  })

  it('cycles a single choice both ways and a boolean with space', () => {
    const hero = press(createFormEditor(fields), next, next, next).editor
    expect(press(hero, { leftArrow: true }).editor.values.hero).toBe('h2')
    expect(press(hero, ' ', ' ', ' ').editor.values.hero).toBe('h1')
    const agree = press(createFormEditor(fields), next, next).editor
    expect(press(agree, ' ').editor.values.agree).toBe(true)
    expect(press(agree, ' ', ' ').editor.values.agree).toBe(false)
    expect(press(agree, 'n').editor.values.agree).toBe(false)
  })

  it('keeps a value that does not convert, marks the field and sends nothing', () => {
    const typed = press(createFormEditor(fields), next, { backspace: true }, 'x', { return: true })
    expect(typed.answer).toBeUndefined()
    expect(typed.editor.focus).toBe(1)
    expect(typed.editor.errors.age).toBe('age: type a number')
    // Editing the field clears its mark.
    expect(press(typed.editor, { backspace: true }).editor.errors.age).toBeUndefined()
  })

  it('declines with Ctrl-D and cancels with Esc from any field', () => {
    expect(press(createFormEditor(fields), next).answer).toBeUndefined()
    expect(pressFormKey(createFormEditor(fields), 'd', { ctrl: true }).answer).toEqual({
      action: 'decline',
    })
    expect(pressFormKey(createFormEditor(fields), '', { escape: true }).answer).toEqual({
      action: 'cancel',
    })
  })

  it('takes a paste with Enter inside as typed text followed by sending', () => {
    const { answer } = press(createFormEditor(fields), 'Grace Hopper\r')
    expect(answer).toMatchObject({ action: 'accept', content: { name: 'Grace Hopper', age: 42 } })
  })

  it('moves to the field a refusal names and shows the reason there', () => {
    const refused = refuseForm(createFormEditor(fields), '`age` must be at least 1')
    expect(refused.focus).toBe(1)
    expect(refused.errors.age).toBe('`age` must be at least 1')
    expect(refuseForm(createFormEditor(fields), 'the question is gone').error).toBe(
      'the question is gone',
    )
  })
})

describe('keys that arrive in one read', () => {
  it('takes control keys inside typed text as keys: Ctrl-U clears before the new value', () => {
    const at = press(createFormEditor(fields), next).editor
    const { editor } = press(at, '\u0015500')
    expect(editor.texts.age?.text).toBe('500')
    expect(press(at, '7\u0004').answer).toEqual({ action: 'decline' })
  })
})
