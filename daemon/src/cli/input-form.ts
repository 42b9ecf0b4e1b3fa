// The form a server's elicitation asks for, read from its restricted JSON Schema (MCP's
// PrimitiveSchemaDefinition), and the typed values built from what a person types into it. Pure;
// whether the values fit the schema is the daemon's call, which refuses with the field named.

export type FieldKind = 'text' | 'number' | 'integer' | 'boolean' | 'choice' | 'choices'

export interface FieldOption {
  value: string
  label: string
}

export type FieldValue = string | number | boolean | string[]

export interface FormField {
  key: string
  /** The schema's `title`, else the key. */
  title: string
  description: string | null
  kind: FieldKind
  required: boolean
  /** `text`: email, uri, date, date-time (or another the server named, shown as it is). */
  format: string | null
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  minItems?: number
  maxItems?: number
  /** `choice` and `choices`: what may be picked, in the server's order. */
  options: FieldOption[]
  /** The schema's default, when it is a value of the field's kind. */
  default?: FieldValue
}

export interface FormModel {
  fields: FormField[]
  /** Properties that are not one of the primitive kinds (the daemon refuses such a request). */
  unsupported: string[]
}

export type FormValues = Record<string, FieldValue | undefined>

type Schema = Record<string, unknown>

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const numberOf = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined

const stringOf = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined

/** `oneOf` / `anyOf` of `{ const, title }`: the titled form of an enum. */
function titledOptions(list: unknown): FieldOption[] | undefined {
  if (!Array.isArray(list)) return undefined
  const options: FieldOption[] = []
  for (const entry of list) {
    if (!isSchema(entry) || typeof entry.const !== 'string') return undefined
    options.push({ value: entry.const, label: stringOf(entry.title) ?? entry.const })
  }
  return options
}

/** `enum`, with the legacy `enumNames` as labels when there is one per value. */
function enumOptions(schema: Schema): FieldOption[] | undefined {
  const values = schema.enum
  if (!Array.isArray(values) || !values.every((v): v is string => typeof v === 'string')) {
    return undefined
  }
  const names = Array.isArray(schema.enumNames) ? schema.enumNames : []
  return values.map((value, i) => ({ value, label: stringOf(names[i]) ?? value }))
}

function optionsOf(schema: Schema): FieldOption[] | undefined {
  return enumOptions(schema) ?? titledOptions(schema.oneOf) ?? titledOptions(schema.anyOf)
}

function kindOf(schema: Schema): { kind: FieldKind; options: FieldOption[] } | undefined {
  switch (schema.type) {
    case 'string': {
      const options = optionsOf(schema)
      return options === undefined ? { kind: 'text', options: [] } : { kind: 'choice', options }
    }
    case 'number':
    case 'integer':
    case 'boolean':
      return { kind: schema.type, options: [] }
    case 'array': {
      const options = isSchema(schema.items) ? optionsOf(schema.items) : undefined
      return options === undefined ? undefined : { kind: 'choices', options }
    }
    default:
      return undefined
  }
}

function defaultOf(field: FormField, value: unknown): FieldValue | undefined {
  const known = (v: unknown) => field.options.some((option) => option.value === v)
  switch (field.kind) {
    case 'text':
      return typeof value === 'string' ? value : undefined
    case 'number':
      return numberOf(value)
    case 'integer':
      return Number.isInteger(value) ? (value as number) : undefined
    case 'boolean':
      return typeof value === 'boolean' ? value : undefined
    case 'choice':
      return known(value) ? (value as string) : undefined
    case 'choices':
      return Array.isArray(value) && value.every(known) ? (value as string[]) : undefined
  }
}

/** The fields of `requestedSchema`, in the order the server wrote them. */
export function readForm(schema: Record<string, unknown> | undefined): FormModel {
  const properties = isSchema(schema?.properties) ? schema.properties : {}
  const required = new Set(
    Array.isArray(schema?.required) ? schema.required.filter((k) => typeof k === 'string') : [],
  )
  const fields: FormField[] = []
  const unsupported: string[] = []
  for (const [key, property] of Object.entries(properties)) {
    const kind = isSchema(property) ? kindOf(property) : undefined
    if (!isSchema(property) || kind === undefined) {
      unsupported.push(key)
      continue
    }
    const field: FormField = {
      key,
      title: stringOf(property.title) ?? key,
      description: stringOf(property.description) ?? null,
      ...kind,
      required: required.has(key),
      format: kind.kind === 'text' ? (stringOf(property.format) ?? null) : null,
    }
    for (const bound of [
      'minLength',
      'maxLength',
      'minimum',
      'maximum',
      'minItems',
      'maxItems',
    ] as const) {
      const value = numberOf(property[bound])
      if (value !== undefined) field[bound] = value
    }
    const value = defaultOf(field, property.default)
    if (value !== undefined) field.default = value
    fields.push(field)
  }
  return { fields, unsupported }
}

/** A field whose value is a secret (`format: password`): never shown as typed. */
export function isMasked(field: FormField): boolean {
  return field.kind === 'text' && field.format === 'password'
}

/** Each field's default, where it has one. */
export function initialValues(fields: FormField[]): FormValues {
  return Object.fromEntries(fields.map((field) => [field.key, field.default]))
}

const FORMATS: Record<string, string> = {
  email: 'an email address',
  uri: 'a URI',
  date: 'a date, YYYY-MM-DD',
  'date-time': 'a date and time, e.g. 2026-01-31T09:30:00Z',
  password: 'a password',
}

function range(min: number | undefined, max: number | undefined, unit: string): string | null {
  if (min !== undefined && max !== undefined) return `${min} to ${max}${unit}`
  if (min !== undefined) return `at least ${min}${unit}`
  if (max !== undefined) return `at most ${max}${unit}`
  return null
}

/** What the field takes, in a few words: `integer, 1 to 100`, `an email address`, `pick 1 to 3`. */
export function fieldHint(field: FormField): string {
  const parts: (string | null)[] = []
  switch (field.kind) {
    case 'text':
      parts.push(field.format === null ? 'text' : (FORMATS[field.format] ?? field.format))
      if (isMasked(field)) parts.push('not shown as typed')
      parts.push(range(field.minLength, field.maxLength, ' characters'))
      break
    case 'number':
    case 'integer':
      parts.push(field.kind, range(field.minimum, field.maximum, ''))
      break
    case 'boolean':
      parts.push('yes or no')
      break
    case 'choice':
      parts.push('pick one')
      break
    case 'choices':
      parts.push(
        field.minItems === undefined && field.maxItems === undefined
          ? 'pick any'
          : `pick ${range(field.minItems, field.maxItems, '') ?? ''}`,
      )
      break
  }
  return parts.filter((part): part is string => part !== null).join(', ')
}

/** A value as the person sees it: labels of choices, yes/no for booleans. */
export function displayValue(field: FormField, value: FieldValue | undefined): string {
  if (value === undefined) return ''
  const label = (v: string) => field.options.find((option) => option.value === v)?.label ?? v
  if (typeof value === 'boolean') return value ? 'yes' : 'no'
  if (Array.isArray(value)) return value.map(label).join(', ')
  if (field.kind === 'choice') return label(String(value))
  return String(value)
}

/** The option a person named: by its number (from 1), its value or its label. */
function findOption(field: FormField, typed: string): FieldOption | undefined {
  const text = typed.trim()
  const index = /^\d+$/.test(text) ? Number(text) - 1 : -1
  const lower = text.toLowerCase()
  return (
    field.options[index] ??
    field.options.find((option) => option.value === text) ??
    field.options.find((option) => option.label.toLowerCase() === lower)
  )
}

export type Parsed = { value: FieldValue | undefined } | { error: string }

/**
 * What a person typed for one field, as a value of the field's kind; empty text leaves the field
 * unset. Only a conversion can fail here: limits, formats and required fields are the daemon's.
 */
export function parseTyped(field: FormField, typed: string): Parsed {
  const text = typed.trim()
  if (text === '' && field.kind !== 'text') return { value: undefined }
  switch (field.kind) {
    case 'text':
      return { value: typed === '' ? undefined : typed }
    case 'number':
    case 'integer': {
      const value = Number(text)
      if (!Number.isFinite(value)) return { error: `${field.title}: type a number` }
      if (field.kind === 'integer' && !Number.isInteger(value)) {
        return { error: `${field.title}: type a whole number` }
      }
      return { value }
    }
    case 'boolean': {
      if (/^(y|yes|true|1)$/i.test(text)) return { value: true }
      if (/^(n|no|false|0)$/i.test(text)) return { value: false }
      return { error: `${field.title}: type y or n` }
    }
    case 'choice': {
      const option = findOption(field, text)
      return option === undefined
        ? { error: `${field.title}: type one of 1 to ${field.options.length}` }
        : { value: option.value }
    }
    case 'choices': {
      const picked: string[] = []
      for (const part of text.split(',')) {
        if (part.trim() === '') continue
        const option = findOption(field, part)
        if (option === undefined) {
          return {
            error: `${field.title}: "${part.trim()}" is not one of 1 to ${field.options.length}`,
          }
        }
        if (!picked.includes(option.value)) picked.push(option.value)
      }
      return { value: picked }
    }
  }
}

/** The content of an `accept`: every field that has a value, in the schema's order. */
export function formContent(fields: FormField[], values: FormValues): Record<string, FieldValue> {
  const content: Record<string, FieldValue> = {}
  for (const field of fields) {
    const value = values[field.key]
    if (value !== undefined) content[field.key] = value
  }
  return content
}

/**
 * The field a refusal from the daemon is about: the first named by its path (`content/integer must
 * be <= 100`), else the first whose key it quotes (`'name'`), else one it mentions as a word.
 */
export function fieldNamed(message: string, fields: FormField[]): FormField | undefined {
  const path = /(?:^|[\s,(])content\/([^\s/:,]+)/.exec(message)?.[1]
  const byPath = fields.find((field) => field.key === path)
  if (byPath !== undefined) return byPath
  const quoted = fields.find((field) =>
    ['`', '"', "'"].some((q) => message.includes(`${q}${field.key}${q}`)),
  )
  if (quoted !== undefined) return quoted
  const words = new Set(message.split(/[^A-Za-z0-9_$-]+/))
  return fields.find((field) => words.has(field.key))
}
