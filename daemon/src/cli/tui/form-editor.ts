// The attach screen's form for a server's elicitation: which field has the keyboard, what is
// typed in each, what is picked, and the answer a key gives. Pure: each key gives the next state.

import type { InputAnswer } from '../../protocol/index.js'
import {
  fieldNamed,
  formContent,
  initialValues,
  parseTyped,
  type FormField,
  type FormValues,
} from '../input-form.js'
import {
  actionForKey,
  editLine,
  emptyLine,
  splitTyped,
  type EditKey,
  type LineState,
} from './line-editor.js'

export interface FormEditor {
  fields: FormField[]
  /** The field with the keyboard. */
  focus: number
  /** What is typed in each text, number and integer field. */
  texts: Record<string, LineState>
  /** What is picked in each boolean, choice and choices field. */
  values: FormValues
  /** The option under the cursor in each choices field. */
  cursors: Record<string, number>
  /** What to fix, by field key: a conversion that failed, or the daemon's refusal. */
  errors: Record<string, string>
  /** A refusal that names no field. */
  error: string | null
}

export type FormKey = EditKey & { shift?: boolean; pageUp?: boolean; pageDown?: boolean }

const TYPED = new Set(['text', 'number', 'integer'])
const isTyped = (field: FormField) => TYPED.has(field.kind)

function lineWith(text: string): LineState {
  return { ...emptyLine(), text, cursor: text.length }
}

export function createFormEditor(fields: FormField[]): FormEditor {
  const initial = initialValues(fields)
  const texts: Record<string, LineState> = {}
  const values: FormValues = {}
  for (const field of fields) {
    const value = initial[field.key]
    if (isTyped(field)) texts[field.key] = lineWith(value === undefined ? '' : String(value))
    else values[field.key] = value
  }
  return { fields, focus: 0, texts, values, cursors: {}, errors: {}, error: null }
}

/** Every field's value, or the fields whose text cannot be converted. */
function collect(editor: FormEditor): { values: FormValues } | { errors: Record<string, string> } {
  const values: FormValues = { ...editor.values }
  const errors: Record<string, string> = {}
  for (const field of editor.fields) {
    if (!isTyped(field)) continue
    const parsed = parseTyped(field, editor.texts[field.key]?.text ?? '')
    if ('error' in parsed) errors[field.key] = parsed.error
    else values[field.key] = parsed.value
  }
  return Object.keys(errors).length > 0 ? { errors } : { values }
}

function submit(editor: FormEditor): { editor: FormEditor; answer?: InputAnswer } {
  const collected = collect(editor)
  if ('errors' in collected) {
    const { errors } = collected
    const first = editor.fields.findIndex((field) => errors[field.key] !== undefined)
    return { editor: { ...editor, errors, focus: Math.max(0, first) } }
  }
  const content = formContent(editor.fields, collected.values)
  return { editor, answer: { action: 'accept', content } }
}

function without(errors: Record<string, string>, key: string): Record<string, string> {
  if (errors[key] === undefined) return errors
  const rest = { ...errors }
  delete rest[key]
  return rest
}

function pick(editor: FormEditor, field: FormField, value: FormValues[string]): FormEditor {
  return {
    ...editor,
    values: { ...editor.values, [field.key]: value },
    errors: without(editor.errors, field.key),
  }
}

function cycle(editor: FormEditor, field: FormField, step: number): FormEditor {
  const count = field.options.length
  if (count === 0) return editor
  const at = field.options.findIndex((option) => option.value === editor.values[field.key])
  const next = at === -1 ? (step > 0 ? 0 : count - 1) : (at + step + count) % count
  return pick(editor, field, field.options[next]?.value)
}

function toggle(editor: FormEditor, field: FormField, index: number): FormEditor {
  const option = field.options[index]
  if (option === undefined) return editor
  const current = editor.values[field.key]
  const picked = Array.isArray(current) ? current : []
  const next = picked.includes(option.value)
    ? picked.filter((value) => value !== option.value)
    : field.options.map((o) => o.value).filter((v) => v === option.value || picked.includes(v))
  return { ...pick(editor, field, next), cursors: { ...editor.cursors, [field.key]: index } }
}

function pickKey(editor: FormEditor, field: FormField, input: string, key: FormKey): FormEditor {
  const digit = /^[1-9]$/.test(input) ? Number(input) - 1 : -1
  if (key.backspace || key.delete) return pick(editor, field, undefined)
  if (field.kind === 'boolean') {
    if (input === 'y') return pick(editor, field, true)
    if (input === 'n') return pick(editor, field, false)
    if (input === ' ' || key.leftArrow || key.rightArrow) {
      return pick(editor, field, editor.values[field.key] !== true)
    }
    return editor
  }
  if (field.kind === 'choice') {
    if (digit >= 0 && digit < field.options.length) {
      return pick(editor, field, field.options[digit]?.value)
    }
    if (key.leftArrow) return cycle(editor, field, -1)
    if (key.rightArrow || input === ' ') return cycle(editor, field, 1)
    return editor
  }
  const cursor = editor.cursors[field.key] ?? 0
  if (digit >= 0) return toggle(editor, field, digit)
  if (input === ' ') return toggle(editor, field, cursor)
  const step = key.leftArrow ? -1 : key.rightArrow ? 1 : 0
  if (step === 0) return editor
  const count = field.options.length
  return { ...editor, cursors: { ...editor.cursors, [field.key]: (cursor + step + count) % count } }
}

function typeKey(editor: FormEditor, field: FormField, input: string, key: FormKey): FormEditor {
  const line = editor.texts[field.key] ?? emptyLine()
  // A paste arrives as one read: its text goes in as typed, line breaks as spaces.
  const action =
    !key.ctrl && !key.meta && input.length > 1
      ? { kind: 'insert' as const, text: input }
      : actionForKey(input, key)
  if (action === undefined || action.kind === 'up' || action.kind === 'down') return editor
  return {
    ...editor,
    texts: { ...editor.texts, [field.key]: editLine(line, action) },
    errors: without(editor.errors, field.key),
  }
}

/**
 * The form after one key, and the answer when the key gives one: Enter sends (once every typed
 * value converts), Esc cancels, Ctrl-D declines; Tab and the up and down arrows move between
 * fields.
 */
export function pressFormKey(
  editor: FormEditor,
  input: string,
  key: FormKey,
): { editor: FormEditor; answer?: InputAnswer } {
  if (key.escape) return { editor, answer: { action: 'cancel' } }
  if (key.ctrl && input === 'd') return { editor, answer: { action: 'decline' } }
  if (key.return) return submit(editor)
  const count = editor.fields.length
  if (count === 0) return { editor }
  const back = (key.tab && key.shift === true) || key.upArrow
  if (key.tab || key.upArrow || key.downArrow) {
    return { editor: { ...editor, focus: (editor.focus + (back ? -1 : 1) + count) % count } }
  }
  const field = editor.fields[editor.focus]
  if (field === undefined) return { editor }
  return {
    editor: isTyped(field)
      ? typeKey(editor, field, input, key)
      : pickKey(editor, field, key.ctrl || key.meta ? '' : input, key),
  }
}

/** The form once the daemon refused an answer: the field it names gets the keyboard and the reason. */
export function refuseForm(editor: FormEditor, message: string): FormEditor {
  const field = fieldNamed(message, editor.fields)
  if (field === undefined) return { ...editor, error: message }
  return {
    ...editor,
    focus: editor.fields.indexOf(field),
    errors: { ...editor.errors, [field.key]: message },
    error: null,
  }
}

/** Like `pressFormKey` for input that arrived in one read (a paste, or keys typed quickly). */
export function pressFormKeys(
  editor: FormEditor,
  input: string,
  key: FormKey,
): { editor: FormEditor; answer?: InputAnswer } {
  if (input.length <= 1 || key.ctrl || key.meta) return pressFormKey(editor, input, key)
  let state = editor
  for (const typed of splitTyped(input)) {
    const step: { editor: FormEditor; answer?: InputAnswer } =
      typed.kind === 'enter'
        ? pressFormKey(state, '', { return: true })
        : typed.kind === 'tab'
          ? pressFormKey(state, '', { tab: true })
          : typed.kind === 'backspace'
            ? pressFormKey(state, '', { backspace: true })
            : pressPasted(state, typed.text)
    if (step.answer !== undefined) return step
    state = step.editor
  }
  return { editor: state }
}

/** Text in one read, with the control keys in it (Ctrl-U right before typing, say) as keys. */
function pressPasted(
  editor: FormEditor,
  text: string,
): { editor: FormEditor; answer?: InputAnswer } {
  let state = editor
  // eslint-disable-next-line no-control-regex -- control keys are what is split off
  for (const part of text.split(/([\u0000-\u001f])/)) {
    if (part === '') continue
    const code = part.charCodeAt(0)
    const step: { editor: FormEditor; answer?: InputAnswer } =
      part.length === 1 && code < 0x20
        ? code === 0x1b
          ? { editor: state }
          : pressFormKey(state, String.fromCharCode(code + 96), { ctrl: true })
        : pressText(state, part)
    if (step.answer !== undefined) return step
    state = step.editor
  }
  return { editor: state }
}

/** Text typed into the focused field: inserted in a typed field, key by key in the others. */
function pressText(editor: FormEditor, text: string): { editor: FormEditor } {
  const field = editor.fields[editor.focus]
  if (field === undefined) return { editor }
  if (isTyped(field)) return { editor: typeKey(editor, field, text, {}) }
  let state = editor
  for (const char of text) state = pickKey(state, field, char, {})
  return { editor: state }
}
