// Form state for a schema's field tree: the initial state from `default`s, the call arguments a
// state stands for, and the way back from arguments (the raw JSON editor) to state.
//
// How state becomes arguments:
// - Text inputs hold text. Numbers and integers are parsed from it; text that is not a number is
//   passed through as a string so validation names the problem instead of losing the input.
// - An optional field left empty is omitted, never sent as "" or null, so the server applies its
//   own default. A nullable field (`type: [X, "null"]` or `anyOf` with null) is optional for the
//   person; when its key is required, leaving it empty sends null.
// - Booleans are plain two-state checkboxes. A required boolean, or one with a default, is always
//   sent (a required one without a default starts unchecked, i.e. false). An optional boolean
//   without a default is sent as true when checked and omitted when not: for nearly every tool
//   "absent" and false mean the same, and a third state would be invisible on a checkbox. An
//   explicit false for such a field can still be sent from the JSON editor.
// - A required enum starts on its first value (a select always shows one); an optional one starts
//   empty unless it has a default.
// - An optional nested object is omitted while it is untouched (still equal to its initial
//   state), so a required field inside it does not block calls that leave it out.
// - A list of choices (an array of an enum) is a set of checkboxes and sends the chosen values in
//   the options' order; with none chosen it follows the rule for arrays below.
// - An optional array with no items is omitted, except when its default has items: then [] is
//   sent, since removing every item is a deliberate choice the default would undo.
// - Array items are always present; an empty item is reported rather than dropped, so the other
//   items keep their positions.

import type { ArrayField, Field, ObjectField } from './schema-model.js'
import { childPath, itemPath, type PathSegment } from './path.js'
import type { FieldError } from './validate.js'

export type FieldState =
  | {
      kind: 'text'
      text: string
      /** The browser could not read the number input (e.g. "1e"); its value reads as empty. */
      unreadable?: boolean
    }
  | { kind: 'boolean'; checked: boolean }
  | { kind: 'choice'; index: number | null }
  /** The indexes of the chosen options of a list of choices, ascending. */
  | { kind: 'multi'; selected: number[] }
  | { kind: 'array'; items: ArrayItem[] }
  | ObjectState

export interface ObjectState {
  kind: 'object'
  fields: Record<string, FieldState>
}

export interface ArrayItem {
  /** Stable identity for rendering, so removing an item keeps the others' inputs. */
  id: number
  value: FieldState
}

let nextItemId = 1

function item(value: FieldState): ArrayItem {
  return { id: nextItemId++, value }
}

export function initialState(root: ObjectField): ObjectState {
  return initialObject(root, root.hasDefault ? root.default : undefined)
}

/** The state of a field with nothing entered yet: its default, or empty. */
export function initialFieldState(field: Field): FieldState {
  const preset = field.hasDefault ? field.default : undefined
  switch (field.kind) {
    case 'string':
      return { kind: 'text', text: typeof preset === 'string' ? preset : '' }
    case 'number':
    case 'integer':
      return { kind: 'text', text: typeof preset === 'number' ? String(preset) : '' }
    case 'boolean':
      return { kind: 'boolean', checked: preset === true }
    case 'choice': {
      const index = field.options.findIndex((option) => option === preset)
      if (index >= 0) return { kind: 'choice', index }
      return { kind: 'choice', index: field.required && !field.nullable ? 0 : null }
    }
    case 'multichoice': {
      const selected = Array.isArray(preset) ? optionIndexes(field.options, preset) : null
      return { kind: 'multi', selected: selected ?? [] }
    }
    case 'array': {
      if (!Array.isArray(preset)) return { kind: 'array', items: [] }
      const state = readValue(field, preset, '', [])
      return state.kind === 'array' ? state : { kind: 'array', items: [] }
    }
    case 'object':
      return initialObject(field, preset)
  }
}

function initialObject(field: ObjectField, preset: unknown): ObjectState {
  const entries = field.fields.map((child): [string, FieldState] => {
    const value =
      isRecord(preset) && Object.hasOwn(preset, child.key) ? preset[child.key] : undefined
    return [
      child.key,
      value === undefined ? initialFieldState(child) : readValue(child, value, '', []),
    ]
  })
  // Built with fromEntries throughout: assigning a key like "__proto__" would not create a field.
  return { kind: 'object', fields: Object.fromEntries(entries) }
}

/** The state of a new array item. */
export function newItemState(field: ArrayField): FieldState {
  return initialFieldState(field.item)
}

export function addItem(field: ArrayField, state: FieldState): FieldState {
  if (state.kind !== 'array') return state
  return { kind: 'array', items: [...state.items, item(newItemState(field))] }
}

export function removeItem(state: FieldState, index: number): FieldState {
  if (state.kind !== 'array') return state
  return { kind: 'array', items: state.items.filter((_, position) => position !== index) }
}

/** Replaces the state at `segments` with `update(current)`; unknown paths leave state as is. */
export function updateAt(
  state: FieldState,
  segments: readonly PathSegment[],
  update: (current: FieldState) => FieldState,
): FieldState {
  const [head, ...rest] = segments
  if (head === undefined) return update(state)
  if (typeof head === 'number' && state.kind === 'array') {
    const target = state.items[head]
    if (target === undefined) return state
    const items = [...state.items]
    items[head] = { id: target.id, value: updateAt(target.value, rest, update) }
    return { kind: 'array', items }
  }
  if (typeof head === 'string' && state.kind === 'object') {
    const target = state.fields[head]
    if (target === undefined) return state
    return { kind: 'object', fields: { ...state.fields, [head]: updateAt(target, rest, update) } }
  }
  return state
}

// ---- state → arguments ----

export interface Conversion {
  args: Record<string, unknown>
  /** Inputs that could not become a value at all; validation cannot see these. */
  problems: FieldError[]
}

export function toArguments(root: ObjectField, state: ObjectState): Conversion {
  const problems: FieldError[] = []
  return { args: objectValue(root, state, '', problems), problems }
}

/** Returned for a field that sends nothing. */
const OMIT = Symbol('omit')

function objectValue(
  field: ObjectField,
  state: FieldState,
  path: string,
  problems: FieldError[],
): Record<string, unknown> {
  const fields = state.kind === 'object' ? state.fields : {}
  const entries: [string, unknown][] = []
  for (const child of field.fields) {
    const childState = fields[child.key] ?? initialFieldState(child)
    const value = fieldValue(child, childState, childPath(path, child.key), problems)
    if (value !== OMIT) entries.push([child.key, value])
  }
  // fromEntries defines own properties, so a key like "__proto__" stays an ordinary argument.
  return Object.fromEntries(entries)
}

/** What an empty field sends: null when its key is required and null is allowed, else nothing. */
function emptyValue(field: Field): unknown {
  return field.required && field.nullable ? null : OMIT
}

function fieldValue(
  field: Field,
  state: FieldState,
  path: string,
  problems: FieldError[],
): unknown {
  switch (field.kind) {
    case 'string':
      if (state.kind !== 'text' || state.text === '') return emptyValue(field)
      return state.text
    case 'number':
    case 'integer': {
      if (state.kind !== 'text') return emptyValue(field)
      if (state.unreadable === true) {
        problems.push({
          path,
          message: `must be ${field.kind === 'integer' ? 'an integer' : 'a number'}`,
        })
        return OMIT
      }
      const text = state.text.trim()
      if (text === '') return emptyValue(field)
      return parseNumber(text) ?? state.text
    }
    case 'boolean': {
      const checked = state.kind === 'boolean' && state.checked
      return checked || field.required || field.hasDefault ? checked : OMIT
    }
    case 'choice': {
      const index = state.kind === 'choice' ? state.index : null
      const option = index === null ? undefined : field.options[index]
      return option === undefined ? emptyValue(field) : option
    }
    case 'multichoice': {
      const selected = state.kind === 'multi' ? state.selected : []
      if (selected.length === 0 && !field.required) {
        const defaultHasItems = Array.isArray(field.default) && field.default.length > 0
        return defaultHasItems ? [] : OMIT
      }
      return [...selected].sort((a, b) => a - b).map((index) => field.options[index])
    }
    case 'array': {
      const items = state.kind === 'array' ? state.items : []
      if (items.length === 0 && !field.required) {
        const defaultHasItems = Array.isArray(field.default) && field.default.length > 0
        return defaultHasItems ? [] : OMIT
      }
      return items.map((entry, index) => {
        const itemPathText = itemPath(path, index)
        const value = fieldValue(field.item, entry.value, itemPathText, problems)
        if (value !== OMIT) return value
        problems.push({ path: itemPathText, message: 'enter a value or remove this item' })
        return null
      })
    }
    case 'object':
      if (!field.required && sameState(state, initialFieldState(field))) return OMIT
      if (field.nullable && sameState(state, initialFieldState(field))) return emptyValue(field)
      return objectValue(field, state, path, problems)
  }
}

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/u

/** A finite number written in decimal notation, or undefined. */
export function parseNumber(text: string): number | undefined {
  if (!NUMBER.test(text)) return undefined
  const value = Number(text)
  return Number.isFinite(value) ? value : undefined
}

/** Structural equality, ignoring array item ids. */
export function sameState(a: FieldState, b: FieldState): boolean {
  switch (a.kind) {
    case 'text':
      return (
        b.kind === 'text' &&
        a.text === b.text &&
        (a.unreadable ?? false) === (b.unreadable ?? false)
      )
    case 'boolean':
      return b.kind === 'boolean' && a.checked === b.checked
    case 'choice':
      return b.kind === 'choice' && a.index === b.index
    case 'multi':
      return (
        b.kind === 'multi' &&
        a.selected.length === b.selected.length &&
        a.selected.every((index, position) => b.selected[position] === index)
      )
    case 'array':
      return (
        b.kind === 'array' &&
        a.items.length === b.items.length &&
        a.items.every((entry, index) => {
          const other = b.items[index]
          return other !== undefined && sameState(entry.value, other.value)
        })
      )
    case 'object': {
      if (b.kind !== 'object') return false
      const keys = Object.keys(a.fields)
      return (
        keys.length === Object.keys(b.fields).length &&
        keys.every((key) => {
          const mine = a.fields[key]
          const theirs = b.fields[key]
          return mine !== undefined && theirs !== undefined && sameState(mine, theirs)
        })
      )
    }
  }
}

// ---- arguments → state ----

export type Reading = { ok: true; state: ObjectState } | { ok: false; errors: FieldError[] }

/**
 * The form state showing `args`, as when leaving the JSON editor. Values the form cannot hold
 * (an unknown key, a list where text belongs) are errors rather than silently dropped.
 */
export function fromArguments(root: ObjectField, args: Record<string, unknown>): Reading {
  const errors: FieldError[] = []
  const state = readValue(root, args, '', errors)
  if (errors.length > 0 || state.kind !== 'object') return { ok: false, errors }
  return { ok: true, state }
}

function cannotShow(errors: FieldError[], path: string, expected: string): void {
  errors.push({ path, message: `the form cannot show this value (expected ${expected})` })
}

function readValue(field: Field, value: unknown, path: string, errors: FieldError[]): FieldState {
  if (value === null && field.nullable) return emptyState(field)
  switch (field.kind) {
    case 'string':
      if (typeof value === 'string') return { kind: 'text', text: value }
      cannotShow(errors, path, 'text')
      return emptyState(field)
    case 'number':
    case 'integer':
      // A number input cannot show a string, not even "5", so the JSON editor keeps it.
      if (typeof value === 'number') return { kind: 'text', text: String(value) }
      cannotShow(errors, path, field.kind === 'integer' ? 'an integer' : 'a number')
      return emptyState(field)
    case 'boolean':
      if (typeof value === 'boolean') return { kind: 'boolean', checked: value }
      cannotShow(errors, path, 'true or false')
      return emptyState(field)
    case 'choice': {
      const index = field.options.findIndex((option) => option === value)
      if (index >= 0) return { kind: 'choice', index }
      cannotShow(errors, path, `one of ${field.options.map((o) => JSON.stringify(o)).join(', ')}`)
      return emptyState(field)
    }
    case 'multichoice': {
      const selected = Array.isArray(value) ? optionIndexes(field.options, value) : null
      if (selected !== null) return { kind: 'multi', selected }
      const list = field.options.map((option) => JSON.stringify(option)).join(', ')
      cannotShow(errors, path, `a list of distinct values from ${list}`)
      return emptyState(field)
    }
    case 'array':
      if (!Array.isArray(value)) {
        cannotShow(errors, path, 'a list')
        return emptyState(field)
      }
      return {
        kind: 'array',
        items: value.map((entry: unknown, index) =>
          item(readValue(field.item, entry, itemPath(path, index), errors)),
        ),
      }
    case 'object': {
      if (!isRecord(value)) {
        cannotShow(errors, path, 'an object')
        return emptyState(field)
      }
      const known = new Set(field.fields.map((child) => child.key))
      for (const key of Object.keys(value)) {
        if (!known.has(key)) {
          errors.push({ path: childPath(path, key), message: 'the form has no field for this key' })
        }
      }
      // A missing key starts from the field's default, which sends the same as leaving it out.
      const entries = field.fields.map((child): [string, FieldState] => [
        child.key,
        Object.hasOwn(value, child.key)
          ? readValue(child, value[child.key], childPath(path, child.key), errors)
          : initialFieldState(child),
      ])
      return { kind: 'object', fields: Object.fromEntries(entries) }
    }
  }
}

/** A field's state with nothing in it (not even its default). */
function emptyState(field: Field): FieldState {
  switch (field.kind) {
    case 'string':
    case 'number':
    case 'integer':
      return { kind: 'text', text: '' }
    case 'boolean':
      return { kind: 'boolean', checked: false }
    case 'choice':
      return { kind: 'choice', index: field.required && !field.nullable ? 0 : null }
    case 'multichoice':
      return { kind: 'multi', selected: [] }
    case 'array':
      return { kind: 'array', items: [] }
    case 'object':
      return initialFieldState(field)
  }
}

/** The ascending option indexes of `values`; null when one is not an option or repeats. */
function optionIndexes(options: readonly unknown[], values: readonly unknown[]): number[] | null {
  const indexes = values.map((value) => options.findIndex((option) => option === value))
  if (indexes.some((index, position) => index < 0 || indexes.indexOf(index) !== position)) {
    return null
  }
  return indexes.sort((a, b) => a - b)
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
