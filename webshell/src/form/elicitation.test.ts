// MCP's restricted elicitation schema as a form: every field kind server-everything asks for, the
// values a form starts with, and what it refuses before anything is sent.

import { describe, expect, it } from 'vitest'
import { everythingElicitationSchema } from './fixtures.js'
import { analyseSchema, type Field, type ObjectField } from './schema-model.js'
import { validateArguments } from './validate.js'
import { fromArguments, initialState, toArguments, updateAt } from './values.js'

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

const noPatterns = () => 'match' as const

function errorsOf(root: ObjectField, content: Record<string, unknown>) {
  return validateArguments(root, content, noPatterns)
}

const everything = rootOf(everythingElicitationSchema)

describe('elicitation schema: the fields a form shows', () => {
  it('reads every field of server-everything’s form, titled enums included', () => {
    expect(everything.fields.map((field) => [field.key, field.kind, field.required])).toEqual([
      ['name', 'string', true],
      ['check', 'boolean', false],
      ['firstLine', 'string', false],
      ['email', 'string', false],
      ['homepage', 'string', false],
      ['birthdate', 'string', false],
      ['integer', 'integer', false],
      ['number', 'number', false],
      ['untitledSingleSelectEnum', 'choice', false],
      ['untitledMultipleSelectEnum', 'multichoice', false],
      ['titledSingleSelectEnum', 'choice', false],
      ['titledMultipleSelectEnum', 'multichoice', false],
      ['legacyTitledEnum', 'choice', false],
    ])
    expect(fieldOf(everything, 'email')).toMatchObject({
      format: 'email',
      title: expect.any(String),
    })
    expect(fieldOf(everything, 'integer')).toMatchObject({ minimum: 1, maximum: 100 })
  })

  it('names titled options by their titles and keeps their values', () => {
    expect(fieldOf(everything, 'titledSingleSelectEnum')).toMatchObject({
      options: ['hero-1', 'hero-2', 'hero-3'],
      labels: ['Superman', 'Green Lantern', 'Wonder Woman'],
    })
    expect(fieldOf(everything, 'titledMultipleSelectEnum')).toMatchObject({
      options: ['fish-1', 'fish-2', 'fish-3'],
      labels: ['Tuna', 'Salmon', 'Trout'],
      minItems: 1,
      maxItems: 3,
    })
    expect(fieldOf(everything, 'legacyTitledEnum')).toMatchObject({
      options: ['pet-1', 'pet-2', 'pet-3', 'pet-4', 'pet-5'],
      labels: ['Cats', 'Dogs', 'Birds', 'Fish', 'Reptiles'],
    })
    expect(fieldOf(everything, 'untitledMultipleSelectEnum')).toMatchObject({
      options: ['Guitar', 'Piano', 'Violin', 'Drums', 'Bass'],
      labels: [undefined, undefined, undefined, undefined, undefined],
    })
  })

  it('ignores enumNames that do not name every value, and folds a null constant into nullable', () => {
    const root = rootOf({
      type: 'object',
      properties: {
        short: { type: 'string', enum: ['a', 'b'], enumNames: ['A'] },
        maybe: {
          oneOf: [
            { const: 'x', title: 'Ex' },
            { const: 'y', title: 'Why' },
            { const: null, title: 'None' },
          ],
        },
        literals: { anyOf: [{ const: 'a' }, { const: 2 }, { type: 'null' }] },
      },
    })
    expect(fieldOf(root, 'short')).toMatchObject({ labels: [undefined, undefined] })
    expect(fieldOf(root, 'maybe')).toMatchObject({
      kind: 'choice',
      nullable: true,
      options: ['x', 'y'],
      labels: ['Ex', 'Why'],
    })
    expect(
      analyseSchema(withProperty('mixed', { oneOf: [{ const: 'a' }, { type: 'string' }] })),
    ).toMatchObject({ supported: false, reason: 'mixed uses oneOf' })
  })
})

function withProperty(key: string, schema: unknown): Record<string, unknown> {
  return { type: 'object', properties: { [key]: schema } }
}

describe('elicitation schema: the values a form starts with and sends', () => {
  it('pre-fills every default and leaves the required name to the person', () => {
    const { args } = toArguments(everything, initialState(everything))
    expect(args).toEqual({
      firstLine: 'It was a dark and stormy night.',
      integer: 42,
      number: 3.14,
      untitledSingleSelectEnum: 'Monica',
      untitledMultipleSelectEnum: ['Guitar'],
      titledSingleSelectEnum: 'hero-1',
      titledMultipleSelectEnum: ['fish-1'],
      legacyTitledEnum: 'pet-1',
    })
    expect(errorsOf(everything, args)).toEqual([{ path: 'name', message: 'required' }])
  })

  it('sends the chosen options of a list in the options’ order', () => {
    const state = updateAt(initialState(everything), ['titledMultipleSelectEnum'], () => ({
      kind: 'multi',
      selected: [2, 0],
    }))
    if (state.kind !== 'object') throw new Error('not an object state')
    expect(toArguments(everything, state).args.titledMultipleSelectEnum).toEqual([
      'fish-1',
      'fish-3',
    ])
  })

  it('omits an optional list with nothing chosen unless its default had items', () => {
    const root = rootOf(
      withProperty('tags', { type: 'array', items: { type: 'string', enum: ['a', 'b'] } }),
    )
    expect(toArguments(root, initialState(root)).args).toEqual({})
    const cleared = updateAt(initialState(everything), ['untitledMultipleSelectEnum'], () => ({
      kind: 'multi',
      selected: [],
    }))
    if (cleared.kind !== 'object') throw new Error('not an object state')
    expect(toArguments(everything, cleared).args.untitledMultipleSelectEnum).toEqual([])
  })

  it('shows content from JSON in the form, and says when a list cannot be shown', () => {
    const back = fromArguments(everything, {
      name: 'Ada',
      titledMultipleSelectEnum: ['fish-3', 'fish-2'],
    })
    expect(back.ok && back.state.fields.titledMultipleSelectEnum).toEqual({
      kind: 'multi',
      selected: [1, 2],
    })
    const repeated = fromArguments(everything, { titledMultipleSelectEnum: ['fish-1', 'fish-1'] })
    expect(repeated).toEqual({
      ok: false,
      errors: [
        {
          path: 'titledMultipleSelectEnum',
          message:
            'the form cannot show this value (expected a list of distinct values from "fish-1", "fish-2", "fish-3")',
        },
      ],
    })
  })
})

describe('elicitation schema: content the form refuses, by field', () => {
  const valid = { name: 'Ada' }

  it('refuses numbers out of range', () => {
    expect(errorsOf(everything, { ...valid, integer: 500, number: -1 })).toEqual([
      { path: 'integer', message: 'must be an integer ≥ 1 and ≤ 100' },
      { path: 'number', message: 'must be a number ≥ 0 and ≤ 1000' },
    ])
  })

  it('checks email, uri, date and date-time formats', () => {
    const root = rootOf({
      type: 'object',
      properties: {
        email: { type: 'string', format: 'email' },
        homepage: { type: 'string', format: 'uri' },
        day: { type: 'string', format: 'date' },
        at: { type: 'string', format: 'date-time' },
      },
    })
    expect(
      errorsOf(root, {
        email: 'ada',
        homepage: 'example.com',
        day: '2026-02-30',
        at: '2026-12-01',
      }),
    ).toEqual([
      { path: 'email', message: 'must be an email address, like name@example.com' },
      { path: 'homepage', message: 'must be a URI with a scheme, like https://example.com' },
      { path: 'day', message: 'must be a date, like 2026-12-31' },
      { path: 'at', message: 'must be a date and time, like 2026-12-31T09:30:00Z' },
    ])
    expect(
      errorsOf(root, {
        email: 'ada@example.org',
        homepage: 'https://example.org/ada',
        day: '2024-02-29',
        at: '2026-12-01T09:30:00.5+01:00',
      }),
    ).toEqual([])
  })

  it('refuses string lengths, unknown options and lists of the wrong size', () => {
    const root = rootOf({
      type: 'object',
      properties: { code: { type: 'string', minLength: 2, maxLength: 4 } },
    })
    expect(errorsOf(root, { code: 'x' })).toEqual([
      { path: 'code', message: 'must be 2 to 4 characters' },
    ])
    expect(
      errorsOf(everything, {
        ...valid,
        titledSingleSelectEnum: 'hero-9',
        titledMultipleSelectEnum: ['fish-1', 'fish-2', 'fish-3', 'fish-1'],
        untitledMultipleSelectEnum: [],
      }),
    ).toEqual([
      { path: 'untitledMultipleSelectEnum', message: 'choose 1 to 3' },
      { path: 'titledSingleSelectEnum', message: 'must be one of "hero-1", "hero-2", "hero-3"' },
      { path: 'titledMultipleSelectEnum[3]', message: 'repeats "fish-1"' },
      { path: 'titledMultipleSelectEnum', message: 'choose 1 to 3' },
    ])
  })
})
