// Reads a tool's input schema (JSON Schema, as MCP servers declare it) into a tree of form fields.
// Only what a form can express faithfully is accepted; anything else makes the whole schema
// unsupported, with a reason naming where, so the WebShell offers raw JSON instead of a form that
// would send arguments the server did not ask for.

import { constUnion, enumNames } from './choices.js'
import { childPath, itemsSchemaPath } from './path.js'

export type Primitive = string | number | boolean

interface FieldBase {
  /** The property name; for an array's item schema, the array's property name. */
  key: string
  title: string | undefined
  description: string | undefined
  /** Listed in the parent's `required` (always true for array items). */
  required: boolean
  /** Accepts null too, so the form may leave it empty even when required. */
  nullable: boolean
  hasDefault: boolean
  default: unknown
}

export interface StringField extends FieldBase {
  kind: 'string'
  minLength?: number
  maxLength?: number
  pattern?: string
  format?: string
  /** Shown as a textarea rather than a one-line input. */
  multiline: boolean
}

export interface NumberField extends FieldBase {
  kind: 'number' | 'integer'
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  exclusiveMaximum?: number
  multipleOf?: number
}

export interface BooleanField extends FieldBase {
  kind: 'boolean'
}

/**
 * An `enum`, a `const`, or a union of constants (`oneOf`/`anyOf` of `{ const, title }`): one of a
 * fixed list of primitive values (null is folded into nullable).
 */
export interface ChoiceField extends FieldBase {
  kind: 'choice'
  options: Primitive[]
  /** What each option is shown as, where the schema names it (a branch's title, `enumNames`). */
  labels: (string | undefined)[]
}

/** An array of choices: any number of the options, each at most once, in the options' order. */
export interface MultiChoiceField extends FieldBase {
  kind: 'multichoice'
  options: Primitive[]
  labels: (string | undefined)[]
  minItems?: number
  maxItems?: number
}

export interface ArrayField extends FieldBase {
  kind: 'array'
  item: Field
  minItems?: number
  maxItems?: number
  uniqueItems: boolean
}

export interface ObjectField extends FieldBase {
  kind: 'object'
  fields: Field[]
  /** `additionalProperties: false`: keys other than `fields` are refused. */
  closed: boolean
}

export type Field =
  | StringField
  | NumberField
  | BooleanField
  | ChoiceField
  | MultiChoiceField
  | ArrayField
  | ObjectField

export type SchemaAnalysis =
  | { supported: true; root: ObjectField }
  | { supported: false; path: string; reason: string }

type Schema = Record<string, unknown>

class Unsupported extends Error {
  constructor(
    readonly path: string,
    detail: string,
  ) {
    super(`${path === '' ? 'the input schema' : path} ${detail}`)
  }
}

// Keywords whose meaning a form cannot reproduce. They are checked after the more specific cases
// below, so `z.record` reads as a map rather than as "uses propertyNames".
const UNSUPPORTED_KEYWORDS = [
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'patternProperties',
  'propertyNames',
  'dependentSchemas',
  'dependentRequired',
  'dependencies',
  'prefixItems',
  'contains',
  'unevaluatedItems',
  '$dynamicRef',
  '$recursiveRef',
]

const KNOWN_TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'object']

export function analyseSchema(schema: unknown): SchemaAnalysis {
  try {
    const root = analyse(schema, { key: '', path: '', required: true })
    if (root.kind !== 'object') {
      throw new Unsupported('', `is not an object schema (it describes ${describeKind(root)})`)
    }
    return { supported: true, root }
  } catch (error) {
    if (error instanceof Unsupported) {
      return { supported: false, path: error.path, reason: error.message }
    }
    throw error
  }
}

function describeKind(field: Field): string {
  if (field.kind === 'choice') return 'a fixed value'
  return `${/^[aeiou]/u.test(field.kind) ? 'an' : 'a'} ${field.kind}`
}

interface Place {
  key: string
  path: string
  required: boolean
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function has(schema: Schema, keyword: string): boolean {
  return Object.hasOwn(schema, keyword)
}

function analyse(input: unknown, place: Place, nullable = false): Field {
  if (input === true || (isSchema(input) && Object.keys(input).every(isAnnotation))) {
    throw new Unsupported(place.path, 'accepts any value')
  }
  if (!isSchema(input)) throw new Unsupported(place.path, 'has an invalid schema')
  const schema = input
  if (has(schema, '$ref')) throw new Unsupported(place.path, 'uses $ref')

  const consts = constUnion(schema)
  const union = consts === null ? unionOf(schema, place) : null
  if (union !== null) return analyse(union, place, true)

  if (!has(schema, 'properties') && has(schema, 'additionalProperties')) {
    if (schema.additionalProperties !== false) {
      throw new Unsupported(place.path, 'is a map with free-form keys (additionalProperties)')
    }
  }
  if (Array.isArray(schema.items)) {
    throw new Unsupported(place.path, 'uses tuple items (an items array)')
  }
  const keyword = UNSUPPORTED_KEYWORDS.find((name) => has(schema, name))
  if (keyword !== undefined) throw new Unsupported(place.path, `uses ${keyword}`)

  const type = typeOf(schema, place.path)
  const base: FieldBase = {
    key: place.key,
    title: typeof schema.title === 'string' ? schema.title : undefined,
    description: typeof schema.description === 'string' ? schema.description : undefined,
    required: place.required,
    nullable: nullable || type.nullable || schema.nullable === true,
    hasDefault: has(schema, 'default'),
    default: schema.default,
  }

  if (consts !== null || has(schema, 'const') || has(schema, 'enum')) {
    return choiceField(schema, base, place.path)
  }
  switch (type.name) {
    case 'string':
      return stringField(schema, base)
    case 'number':
    case 'integer':
      return numberField(schema, base, type.name)
    case 'boolean':
      return { ...base, kind: 'boolean' }
    case 'array':
      return arrayField(schema, base, place)
    case 'object':
      return objectField(schema, base, place.path)
    default:
      throw new Unsupported(place.path, 'accepts any value')
  }
}

// Keywords that describe but do not constrain; a schema made only of these accepts anything.
function isAnnotation(keyword: string): boolean {
  return [
    'title',
    'description',
    'default',
    'examples',
    '$schema',
    '$id',
    '$comment',
    '$defs',
    'definitions',
    'deprecated',
    'readOnly',
    'writeOnly',
  ].includes(keyword)
}

function isNullSchema(value: unknown): boolean {
  if (!isSchema(value)) return false
  if (value.type === 'null') return true
  if (has(value, 'const') && value.const === null) return true
  return Array.isArray(value.enum) && value.enum.length > 0 && value.enum.every((v) => v === null)
}

/**
 * For `anyOf`/`oneOf` of one schema and null, the one schema merged with the union's own keywords
 * (its title, description and default take precedence); null when there is no union. Any other
 * union is unsupported.
 */
function unionOf(schema: Schema, place: Place): Schema | null {
  const keywords = ['anyOf', 'oneOf'].filter((name) => has(schema, name))
  if (keywords.length === 0) return null
  const keyword = keywords.join(' and ')
  const branches = keywords.flatMap((name) => {
    const value = schema[name]
    return Array.isArray(value) ? value : [undefined]
  })
  const others = branches.filter((branch) => !isNullSchema(branch))
  const [only] = others
  if (keywords.length > 1 || others.length !== 1 || others.length === branches.length) {
    throw new Unsupported(place.path, `uses ${keyword}`)
  }
  if (!isSchema(only)) throw new Unsupported(place.path, `uses ${keyword}`)
  const rest = Object.fromEntries(
    Object.entries(schema).filter(([name]) => name !== 'anyOf' && name !== 'oneOf'),
  )
  return { ...only, ...rest }
}

function typeOf(schema: Schema, path: string): { name: string | undefined; nullable: boolean } {
  const declared = schema.type
  if (declared === undefined) {
    if (has(schema, 'properties')) return { name: 'object', nullable: false }
    if (has(schema, 'items')) return { name: 'array', nullable: false }
    return { name: undefined, nullable: false }
  }
  const names = Array.isArray(declared) ? declared : [declared]
  if (!names.every((name) => typeof name === 'string')) {
    throw new Unsupported(path, 'has an invalid type')
  }
  const nonNull = names.filter((name) => name !== 'null')
  const nullable = nonNull.length < names.length
  if (nonNull.length === 0) throw new Unsupported(path, 'only accepts null')
  if (nonNull.length > 1)
    throw new Unsupported(path, `accepts several types (${nonNull.join(', ')})`)
  const [name] = nonNull
  if (name === undefined || !KNOWN_TYPES.includes(name)) {
    throw new Unsupported(path, `has unsupported type ${JSON.stringify(name)}`)
  }
  return { name, nullable }
}

function isPrimitive(value: unknown): value is Primitive {
  return (
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  )
}

function choiceField(schema: Schema, base: FieldBase, path: string): ChoiceField {
  const consts = constUnion(schema)
  const values: unknown[] =
    consts !== null
      ? consts.values
      : has(schema, 'const')
        ? [schema.const]
        : Array.isArray(schema.enum)
          ? schema.enum
          : []
  const names = consts?.labels ?? enumNames(schema) ?? []
  if (values.length === 0) throw new Unsupported(path, 'has an empty enum')
  const options: Primitive[] = []
  const labels: (string | undefined)[] = []
  for (const [index, value] of values.entries()) {
    if (value === null || options.includes(value as Primitive)) continue
    if (!isPrimitive(value)) {
      throw new Unsupported(path, 'allows values that are not text, numbers or booleans')
    }
    options.push(value)
    labels.push(names[index])
  }
  if (options.length === 0) throw new Unsupported(path, 'only accepts null')
  return {
    ...base,
    kind: 'choice',
    nullable: base.nullable || values.includes(null),
    options,
    labels,
  }
}

function numberKeyword(schema: Schema, keyword: string): number | undefined {
  const value = schema[keyword]
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}

function countKeyword(schema: Schema, keyword: string): number | undefined {
  const value = numberKeyword(schema, keyword)
  return value !== undefined && Number.isInteger(value) && value >= 0 ? value : undefined
}

const MULTILINE_HINT = /multi-?line|several lines|multiple lines|line breaks/iu

// Long free text gets a textarea; a `format` means a single value like an email or URL.
const TEXTAREA_MIN_LENGTH = 200

function stringField(schema: Schema, base: FieldBase): StringField {
  const maxLength = countKeyword(schema, 'maxLength')
  const format = typeof schema.format === 'string' ? schema.format : undefined
  return {
    ...base,
    kind: 'string',
    minLength: countKeyword(schema, 'minLength'),
    maxLength,
    pattern: typeof schema.pattern === 'string' ? schema.pattern : undefined,
    format,
    multiline:
      format === undefined &&
      ((maxLength ?? 0) > TEXTAREA_MIN_LENGTH || MULTILINE_HINT.test(base.description ?? '')),
  }
}

function numberField(schema: Schema, base: FieldBase, kind: 'number' | 'integer'): NumberField {
  let minimum = numberKeyword(schema, 'minimum')
  let maximum = numberKeyword(schema, 'maximum')
  let exclusiveMinimum = numberKeyword(schema, 'exclusiveMinimum')
  let exclusiveMaximum = numberKeyword(schema, 'exclusiveMaximum')
  // Draft 4 spells exclusive bounds as booleans that qualify minimum and maximum.
  if (schema.exclusiveMinimum === true && minimum !== undefined) {
    exclusiveMinimum = minimum
    minimum = undefined
  }
  if (schema.exclusiveMaximum === true && maximum !== undefined) {
    exclusiveMaximum = maximum
    maximum = undefined
  }
  const multipleOf = numberKeyword(schema, 'multipleOf')
  return {
    ...base,
    kind,
    minimum,
    maximum,
    exclusiveMinimum,
    exclusiveMaximum,
    multipleOf: multipleOf !== undefined && multipleOf > 0 ? multipleOf : undefined,
  }
}

function arrayField(schema: Schema, base: FieldBase, place: Place): ArrayField | MultiChoiceField {
  const path = itemsSchemaPath(place.path)
  if (!has(schema, 'items'))
    throw new Unsupported(place.path, 'is an array without an items schema')
  const item = analyse(schema.items, { key: place.key, path, required: true })
  const minItems = countKeyword(schema, 'minItems')
  const maxItems = countKeyword(schema, 'maxItems')
  // A list of choices is picked from, as a set of checkboxes, rather than built item by item.
  if (item.kind === 'choice' && !item.nullable) {
    return {
      ...base,
      kind: 'multichoice',
      options: item.options,
      labels: item.labels,
      minItems,
      maxItems,
    }
  }
  return {
    ...base,
    kind: 'array',
    item,
    minItems,
    maxItems,
    uniqueItems: schema.uniqueItems === true,
  }
}

function objectField(schema: Schema, base: FieldBase, path: string): ObjectField {
  const properties = schema.properties ?? {}
  if (!isSchema(properties)) throw new Unsupported(path, 'has invalid properties')
  const required = Array.isArray(schema.required) ? schema.required : []
  for (const key of required) {
    if (typeof key !== 'string' || !Object.hasOwn(properties, key)) {
      throw new Unsupported(path, `requires ${JSON.stringify(key)}, which has no schema`)
    }
  }
  return {
    ...base,
    kind: 'object',
    fields: Object.entries(properties).map(([key, property]) =>
      analyse(property, { key, path: childPath(path, key), required: required.includes(key) }),
    ),
    closed: schema.additionalProperties === false,
  }
}
