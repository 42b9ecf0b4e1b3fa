// Which schemas become forms, the field tree they become, and the reasons given for the rest.

import { describe, expect, it } from 'vitest'
import { orderSchema, planTripSchema } from './fixtures.js'
import { analyseSchema, type Field, type ObjectField } from './schema-model.js'

function rootOf(schema: unknown): ObjectField {
  const analysis = analyseSchema(schema)
  if (!analysis.supported) throw new Error(`unexpectedly unsupported: ${analysis.reason}`)
  return analysis.root
}

function fieldOf(parent: ObjectField, key: string): Field {
  const field = parent.fields.find((candidate) => candidate.key === key)
  if (field === undefined) throw new Error(`no field ${key}`)
  return field
}

function reasonFor(schema: unknown): string {
  const analysis = analyseSchema(schema)
  if (analysis.supported) throw new Error('unexpectedly supported')
  return analysis.reason
}

function withProperty(key: string, schema: unknown): Record<string, unknown> {
  return { type: 'object', properties: { [key]: schema } }
}

describe('analyseSchema: supported schemas', () => {
  it('reads the plan_trip schema zod emits', () => {
    const root = rootOf(planTripSchema)
    expect(root.fields.map((field) => [field.key, field.kind, field.required])).toEqual([
      ['destination', 'string', true],
      ['mode', 'choice', true],
      ['stops', 'array', true],
      ['traveller', 'object', true],
      ['steps', 'integer', false],
      ['delayMs', 'integer', false],
    ])
    expect(fieldOf(root, 'mode')).toMatchObject({
      options: ['train', 'bus', 'ferry'],
      description: 'How to travel',
    })
    expect(fieldOf(root, 'stops')).toMatchObject({ minItems: 1, item: { kind: 'string' } })
    expect(fieldOf(root, 'steps')).toMatchObject({ hasDefault: true, default: 4, minimum: 1 })
    const traveller = fieldOf(root, 'traveller')
    if (traveller.kind !== 'object') throw new Error('traveller is not an object')
    expect(fieldOf(traveller, 'name')).toMatchObject({ kind: 'string', required: true })
    expect(fieldOf(traveller, 'age')).toMatchObject({ kind: 'integer', required: false })
  })

  it('reads nested objects, arrays of objects and titles', () => {
    const root = rootOf(orderSchema)
    expect(root.closed).toBe(true)
    const customer = fieldOf(root, 'customer')
    expect(customer).toMatchObject({ kind: 'object', title: 'Customer' })
    if (customer.kind !== 'object') throw new Error('customer is not an object')
    expect(fieldOf(customer, 'address')).toMatchObject({
      kind: 'object',
      fields: [
        { key: 'city', kind: 'string', required: true },
        { key: 'zip', kind: 'string', required: false, pattern: '^[0-9]{5}$' },
      ],
    })
    expect(fieldOf(root, 'lines')).toMatchObject({
      kind: 'array',
      minItems: 1,
      maxItems: 3,
      item: {
        kind: 'object',
        required: true,
        fields: [
          { key: 'sku', kind: 'string' },
          { key: 'quantity', kind: 'integer', exclusiveMinimum: 0, default: 1 },
          { key: 'gift', kind: 'boolean' },
        ],
      },
    })
  })

  it('treats a schema without properties as an empty form', () => {
    expect(rootOf({ type: 'object' }).fields).toEqual([])
    expect(rootOf({ type: 'object', properties: {}, additionalProperties: false }).fields).toEqual(
      [],
    )
  })

  it('infers object and array types from properties and items', () => {
    const root = rootOf({ properties: { list: { items: { type: 'number' } } } })
    expect(fieldOf(root, 'list')).toMatchObject({ kind: 'array', item: { kind: 'number' } })
  })

  it('turns enum and const of any primitive into choices', () => {
    const root = rootOf({
      type: 'object',
      properties: {
        level: { type: 'integer', enum: [1, 2, 3] },
        flag: { enum: [true, false] },
        fixed: { const: 'v1' },
        mixed: { enum: ['a', 1] },
      },
    })
    expect(fieldOf(root, 'level')).toMatchObject({ kind: 'choice', options: [1, 2, 3] })
    expect(fieldOf(root, 'flag')).toMatchObject({ kind: 'choice', options: [true, false] })
    expect(fieldOf(root, 'fixed')).toMatchObject({ kind: 'choice', options: ['v1'] })
    expect(fieldOf(root, 'mixed')).toMatchObject({ kind: 'choice', options: ['a', 1] })
  })

  it('treats nullable unions as an optional field of the other type', () => {
    const root = rootOf({
      type: 'object',
      properties: {
        a: { type: ['string', 'null'], minLength: 2 },
        b: { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'null' }], description: 'B' },
        c: { oneOf: [{ type: 'null' }, { type: 'boolean' }] },
        d: { enum: ['x', 'y', null] },
        e: { type: 'string' },
      },
      required: ['a', 'b'],
    })
    expect(fieldOf(root, 'a')).toMatchObject({ kind: 'string', nullable: true, minLength: 2 })
    expect(fieldOf(root, 'b')).toMatchObject({
      kind: 'integer',
      nullable: true,
      required: true,
      minimum: 1,
      description: 'B',
    })
    expect(fieldOf(root, 'c')).toMatchObject({ kind: 'boolean', nullable: true })
    expect(fieldOf(root, 'd')).toMatchObject({
      kind: 'choice',
      nullable: true,
      options: ['x', 'y'],
    })
    expect(fieldOf(root, 'e')).toMatchObject({ nullable: false })
  })

  it('reads draft-4 boolean exclusive bounds as numeric ones', () => {
    const root = rootOf(
      withProperty('ratio', {
        type: 'number',
        minimum: 0,
        exclusiveMinimum: true,
        maximum: 1,
        exclusiveMaximum: false,
      }),
    )
    expect(fieldOf(root, 'ratio')).toMatchObject({
      minimum: undefined,
      exclusiveMinimum: 0,
      maximum: 1,
      exclusiveMaximum: undefined,
    })
  })

  it('shows long or multi-line text as a textarea, but not formatted values', () => {
    const root = rootOf({
      type: 'object',
      properties: {
        body: { type: 'string', maxLength: 5000 },
        script: { type: 'string', description: 'Multi-line shell script' },
        url: { type: 'string', format: 'uri', maxLength: 2048 },
        name: { type: 'string', maxLength: 50 },
      },
    })
    expect(fieldOf(root, 'body')).toMatchObject({ multiline: true })
    expect(fieldOf(root, 'script')).toMatchObject({ multiline: true })
    expect(fieldOf(root, 'url')).toMatchObject({ multiline: false })
    expect(fieldOf(root, 'name')).toMatchObject({ multiline: false })
  })

  it('ignores annotations and keywords that do not change what is accepted', () => {
    const root = rootOf({
      $schema: 'http://json-schema.org/draft-07/schema#',
      $defs: { unused: { type: 'string' } },
      type: 'object',
      properties: { q: { type: 'string', examples: ['x'], deprecated: true } },
    })
    expect(fieldOf(root, 'q')).toMatchObject({ kind: 'string' })
  })
})

describe('analyseSchema: unsupported schemas name the path and the reason', () => {
  it('rejects a oneOf that is not a nullable union', () => {
    const schema = {
      type: 'object',
      properties: {
        filters: {
          type: 'object',
          properties: {
            range: {
              oneOf: [
                { type: 'object', properties: { from: { type: 'string' } } },
                { type: 'object', properties: { last: { type: 'integer' } } },
              ],
            },
          },
        },
      },
    }
    expect(analyseSchema(schema)).toEqual({
      supported: false,
      path: 'filters.range',
      reason: 'filters.range uses oneOf',
    })
  })

  it('rejects anyOf of two types, and of constants beside other schemas', () => {
    expect(reasonFor(withProperty('id', { anyOf: [{ type: 'string' }, { type: 'number' }] }))).toBe(
      'id uses anyOf',
    )
    expect(
      reasonFor(withProperty('lit', { anyOf: [{ const: 'a' }, { const: 2 }, { type: 'string' }] })),
    ).toBe('lit uses anyOf')
  })

  it('rejects allOf, $ref, not and conditionals', () => {
    expect(reasonFor(withProperty('a', { allOf: [{ type: 'string' }] }))).toBe('a uses allOf')
    expect(reasonFor(withProperty('a', { $ref: '#/$defs/a' }))).toBe('a uses $ref')
    expect(reasonFor(withProperty('a', { type: 'string', not: { const: '' } }))).toBe('a uses not')
    expect(reasonFor(withProperty('a', { type: 'object', if: {}, then: {} }))).toBe('a uses if')
  })

  it('rejects tuples, in either spelling', () => {
    expect(reasonFor(withProperty('pair', { type: 'array', items: [{ type: 'string' }] }))).toBe(
      'pair uses tuple items (an items array)',
    )
    expect(
      reasonFor(
        withProperty('pair', { type: 'array', prefixItems: [{ type: 'string' }], items: false }),
      ),
    ).toBe('pair uses prefixItems')
  })

  it('rejects maps and pattern properties', () => {
    const record = {
      type: 'object',
      propertyNames: { type: 'string' },
      additionalProperties: { type: 'number' },
    }
    expect(reasonFor(withProperty('env', record))).toBe(
      'env is a map with free-form keys (additionalProperties)',
    )
    expect(reasonFor({ type: 'object', additionalProperties: true })).toBe(
      'the input schema is a map with free-form keys (additionalProperties)',
    )
    expect(
      reasonFor(
        withProperty('env', {
          type: 'object',
          properties: {},
          patternProperties: { '^x-': { type: 'string' } },
        }),
      ),
    ).toBe('env uses patternProperties')
  })

  it('rejects unknown, several and missing types', () => {
    expect(reasonFor(withProperty('a', { type: 'date' }))).toBe('a has unsupported type "date"')
    expect(reasonFor(withProperty('a', { type: ['string', 'number'] }))).toBe(
      'a accepts several types (string, number)',
    )
    expect(reasonFor(withProperty('a', {}))).toBe('a accepts any value')
    expect(reasonFor(withProperty('a', { description: 'anything' }))).toBe('a accepts any value')
    expect(reasonFor(withProperty('a', { type: 'null' }))).toBe('a only accepts null')
  })

  it('names paths inside arrays and quotes unusual keys', () => {
    const schema = withProperty('rows', {
      type: 'array',
      items: { type: 'object', properties: { 'a b': { $ref: '#/x' } } },
    })
    expect(analyseSchema(schema)).toMatchObject({ path: 'rows[]["a b"]' })
    expect(reasonFor(schema)).toBe('rows[]["a b"] uses $ref')
    expect(reasonFor(withProperty('list', { type: 'array' }))).toBe(
      'list is an array without an items schema',
    )
  })

  it('rejects enums of objects, a required key without a schema and a non-object root', () => {
    expect(reasonFor(withProperty('a', { enum: [{ x: 1 }] }))).toBe(
      'a allows values that are not text, numbers or booleans',
    )
    expect(reasonFor({ type: 'object', properties: {}, required: ['ghost'] })).toBe(
      'the input schema requires "ghost", which has no schema',
    )
    expect(reasonFor({ type: 'array', items: { type: 'string' } })).toBe(
      'the input schema is not an object schema (it describes an array)',
    )
  })
})
