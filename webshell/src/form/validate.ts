// Checks call arguments against the schema subset the form supports, before anything is sent, and
// reads the raw JSON editor's text. Messages say what to enter (`count: must be an integer ≥ 1`),
// since a person reads them next to the field. Patterns are never run here: their verdicts come
// from a lookup (checked beforehand in the pattern worker, or directly in tests).

import type {
  ArrayField,
  ChoiceField,
  Field,
  MultiChoiceField,
  NumberField,
  ObjectField,
  StringField,
} from './schema-model.js'
import { formatProblem } from './formats.js'
import { jsonErrorOffset } from './json-position.js'
import { childPath, itemPath } from './path.js'
import type { PatternOutcome } from './pattern.js'

export interface FieldError {
  /** Where the problem is (`traveller.name`, `stops[0]`); '' for the arguments as a whole. */
  path: string
  message: string
}

/** The verdict on `value` for the pattern of the field at `path`. */
export type PatternLookup = (pattern: string, value: string, path: string) => PatternOutcome

interface Checking {
  errors: FieldError[]
  patterns: PatternLookup
}

export function validateArguments(
  root: ObjectField,
  args: Record<string, unknown>,
  patterns: PatternLookup,
): FieldError[] {
  const checking: Checking = { errors: [], patterns }
  check(root, args, '', checking)
  return checking.errors
}

/** Every (pattern, value) that validating `args` needs a verdict on, with the field's path. */
export function patternChecks(
  root: ObjectField,
  args: Record<string, unknown>,
): { path: string; pattern: string; value: string }[] {
  const found: { path: string; pattern: string; value: string }[] = []
  validateArguments(root, args, (pattern, value, path) => {
    found.push({ path, pattern, value })
    return 'unchecked'
  })
  return found
}

function check(field: Field, value: unknown, path: string, checking: Checking): void {
  if (value === null && field.nullable) return
  const message = problem(field, value, path, checking)
  if (message !== undefined) checking.errors.push({ path, message })
}

/** The problem with `value` itself, if any; problems inside it are pushed to `errors`. */
function problem(
  field: Field,
  value: unknown,
  path: string,
  checking: Checking,
): string | undefined {
  switch (field.kind) {
    case 'string':
      return stringProblem(field, value, path, checking.patterns)
    case 'number':
    case 'integer':
      return numberProblem(field, value)
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false'
    case 'choice':
      return choiceProblem(field, value)
    case 'multichoice':
      return multiChoiceProblem(field, value, path, checking)
    case 'array':
      return arrayProblem(field, value, path, checking)
    case 'object':
      return objectProblem(field, value, path, checking)
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}

function stringProblem(
  field: StringField,
  value: unknown,
  path: string,
  patterns: PatternLookup,
): string | undefined {
  if (typeof value !== 'string') return 'must be text'
  // JSON Schema counts characters as code points, so an emoji is one character.
  const length = [...value].length
  const { minLength: min, maxLength: max } = field
  if ((min !== undefined && length < min) || (max !== undefined && length > max)) {
    if (min !== undefined && max !== undefined) {
      return min === max
        ? `must be exactly ${plural(min, 'character')}`
        : `must be ${min} to ${plural(max, 'character')}`
    }
    if (min === 1) return 'must not be empty'
    if (min !== undefined) return `must be at least ${plural(min, 'character')}`
    if (max !== undefined) return `must be at most ${plural(max, 'character')}`
  }
  // An invalid pattern is skipped, and so is one without a verdict: the server validates.
  if (field.pattern !== undefined && patterns(field.pattern, value, path) === 'mismatch') {
    return field.format !== undefined
      ? `must be a valid ${field.format}`
      : `must match the pattern ${field.pattern}`
  }
  // A pattern the server gave decides; the form's own format check stands in only without one.
  return field.pattern === undefined ? formatProblem(field.format, value) : undefined
}

interface Bound {
  limit: number | undefined
  symbol: string
  allows: (value: number, limit: number) => boolean
}

function bounds(field: NumberField): Bound[] {
  return [
    { limit: field.minimum, symbol: '≥', allows: (value, limit) => value >= limit },
    { limit: field.exclusiveMinimum, symbol: '>', allows: (value, limit) => value > limit },
    { limit: field.maximum, symbol: '≤', allows: (value, limit) => value <= limit },
    { limit: field.exclusiveMaximum, symbol: '<', allows: (value, limit) => value < limit },
  ]
}

function numberProblem(field: NumberField, value: unknown): string | undefined {
  const isNumber = typeof value === 'number' && Number.isFinite(value)
  const wholeEnough = field.kind !== 'integer' || Number.isInteger(value)
  const within = (bound: Bound): boolean =>
    bound.limit === undefined || (isNumber && bound.allows(value, bound.limit))
  const all = bounds(field)
  if (isNumber && wholeEnough && all.every(within)) {
    if (field.multipleOf !== undefined && !isMultiple(value, field.multipleOf)) {
      return `must be a multiple of ${field.multipleOf}`
    }
    return undefined
  }
  // zod gives every integer ±MAX_SAFE_INTEGER bounds; they are noise unless they are the problem.
  const shown = all.filter(
    (bound) =>
      bound.limit !== undefined &&
      (Math.abs(bound.limit) < Number.MAX_SAFE_INTEGER || !within(bound)),
  )
  const rule = shown.map((bound) => `${bound.symbol} ${bound.limit}`).join(' and ')
  const kind = field.kind === 'integer' ? 'an integer' : 'a number'
  return `must be ${kind}${rule === '' ? '' : ` ${rule}`}`
}

function isMultiple(value: number, step: number): boolean {
  const quotient = value / step
  // Decimal steps such as 0.1 are inexact in binary, so allow rounding noise.
  return Math.abs(quotient - Math.round(quotient)) < 1e-9
}

function choiceProblem(field: ChoiceField, value: unknown): string | undefined {
  if (field.options.some((option) => option === value)) return undefined
  const [only] = field.options
  if (field.options.length === 1) return `must be ${JSON.stringify(only)}`
  return `must be one of ${field.options.map((option) => JSON.stringify(option)).join(', ')}`
}

function multiChoiceProblem(
  field: MultiChoiceField,
  value: unknown,
  path: string,
  checking: Checking,
): string | undefined {
  if (!Array.isArray(value)) return 'must be a list'
  const seen = new Set<unknown>()
  for (const [index, entry] of value.entries()) {
    const message = seen.has(entry)
      ? `repeats ${JSON.stringify(entry)}`
      : choiceProblem({ ...field, kind: 'choice' }, entry)
    seen.add(entry)
    if (message !== undefined) checking.errors.push({ path: itemPath(path, index), message })
  }
  const { minItems: min, maxItems: max } = field
  if (min !== undefined && max !== undefined && (value.length < min || value.length > max)) {
    return min === max ? `choose exactly ${min}` : `choose ${min} to ${max}`
  }
  if (min !== undefined && value.length < min) return `choose at least ${min}`
  if (max !== undefined && value.length > max) return `choose at most ${max}`
  return undefined
}

function arrayProblem(
  field: ArrayField,
  value: unknown,
  path: string,
  checking: Checking,
): string | undefined {
  if (!Array.isArray(value)) return 'must be a list'
  value.forEach((entry: unknown, index) =>
    check(field.item, entry, itemPath(path, index), checking),
  )
  const { minItems: min, maxItems: max } = field
  if (min !== undefined && value.length < min) return `must have at least ${plural(min, 'item')}`
  if (max !== undefined && value.length > max) return `must have at most ${plural(max, 'item')}`
  if (field.uniqueItems) {
    const seen = new Map<string, number>()
    for (const [index, entry] of value.entries()) {
      const key = canonical(entry)
      const first = seen.get(key)
      if (first !== undefined)
        return `must not repeat items (item ${index + 1} repeats item ${first + 1})`
      seen.set(key, index)
    }
  }
  return undefined
}

/** JSON with sorted keys, so equal values compare equal as strings. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    const members = entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonical(entry)}`)
    return `{${members.join(',')}}`
  }
  return JSON.stringify(value) ?? 'undefined'
}

function objectProblem(
  field: ObjectField,
  value: unknown,
  path: string,
  checking: Checking,
): string | undefined {
  const errors = checking.errors
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'must be an object'
  const record = value as Record<string, unknown>
  for (const child of field.fields) {
    const childPathText = childPath(path, child.key)
    if (Object.hasOwn(record, child.key)) check(child, record[child.key], childPathText, checking)
    else if (child.required) errors.push({ path: childPathText, message: 'required' })
  }
  if (field.closed) {
    const known = new Set(field.fields.map((child) => child.key))
    for (const key of Object.keys(record)) {
      if (!known.has(key))
        errors.push({ path: childPath(path, key), message: 'is not an accepted argument' })
    }
  }
  return undefined
}

// ---- raw JSON ----

export type JsonReading =
  | { ok: true; args: Record<string, unknown> }
  | { ok: false; error: FieldError }

/** Reads the JSON editor's text as call arguments: it must be a JSON object. */
export function parseArgumentsJson(text: string): JsonReading {
  if (text.trim() === '') {
    return {
      ok: false,
      error: { path: '', message: 'Enter the arguments as a JSON object, e.g. {}' },
    }
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return { ok: false, error: { path: '', message: jsonErrorMessage(text, error) } }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const found = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`
    return {
      ok: false,
      error: { path: '', message: `Arguments must be a JSON object ({ … }), not ${found}` },
    }
  }
  return { ok: true, args: value as Record<string, unknown> }
}

/** The parser's message, located by line and column so a person can find the mistake. */
function jsonErrorMessage(text: string, error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error)
  const stated = /at position (\d+)/u.exec(raw)?.[1]
  const offset = stated !== undefined ? Number(stated) : jsonErrorOffset(text)
  // Drop what each engine appends about where, and V8's copy of the whole text; the location is
  // given once, the same way for every browser.
  const reason = raw
    .replace(/^JSON\.parse: /u, '')
    .replace(/^(Unexpected token .*?), .*is not valid JSON$/su, '$1')
    .replace(/\s*(in JSON )?at position \d+.*$/su, '')
    .replace(/ at line \d+ column \d+ of the JSON data$/u, '')
    .trim()
  if (offset === undefined) return `Not valid JSON: ${reason}`
  const before = text.slice(0, offset).split('\n')
  const line = before.length
  const column = (before[before.length - 1]?.length ?? 0) + 1
  return `Not valid JSON at line ${line}, column ${column} (position ${offset}): ${reason}`
}
