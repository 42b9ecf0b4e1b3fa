// Initial form state from defaults, the arguments a state sends, and reading arguments back.

import { describe, expect, it } from 'vitest'
import { orderSchema, planTripSchema } from './fixtures.js'
import { analyseSchema, type ArrayField, type ObjectField } from './schema-model.js'
import {
  addItem,
  fromArguments,
  initialState,
  removeItem,
  toArguments,
  updateAt,
  type FieldState,
  type ObjectState,
} from './values.js'

function rootOf(schema: unknown): ObjectField {
  const analysis = analyseSchema(schema)
  if (!analysis.supported) throw new Error(`unexpectedly unsupported: ${analysis.reason}`)
  return analysis.root
}

function arrayField(root: ObjectField, key: string): ArrayField {
  const field = root.fields.find((candidate) => candidate.key === key)
  if (field?.kind !== 'array') throw new Error(`${key} is not an array`)
  return field
}

const text = (value: string): FieldState => ({ kind: 'text', text: value })

function set(state: ObjectState, path: (string | number)[], value: FieldState): ObjectState {
  const next = updateAt(state, path, () => value)
  if (next.kind !== 'object') throw new Error('root is no longer an object')
  return next
}

function edit(
  state: ObjectState,
  path: (string | number)[],
  update: (current: FieldState) => FieldState,
): ObjectState {
  const next = updateAt(state, path, update)
  if (next.kind !== 'object') throw new Error('root is no longer an object')
  return next
}

describe('initialState', () => {
  it('fills defaults recursively and leaves the rest empty', () => {
    const root = rootOf(orderSchema)
    const state = initialState(root)
    expect(state.fields.priority).toEqual({ kind: 'choice', index: 1 })
    expect(state.fields.express).toEqual({ kind: 'boolean', checked: true })
    expect(state.fields.notify).toEqual({ kind: 'boolean', checked: false })
    expect(state.fields.discount).toEqual(text(''))
    expect(state.fields.tags).toMatchObject({ kind: 'array', items: [{ value: text('web') }] })
    expect(state.fields.customer).toMatchObject({
      kind: 'object',
      fields: { email: text(''), address: { fields: { city: text(''), zip: text('') } } },
    })
    expect(state.fields.lines).toEqual({ kind: 'array', items: [] })
  })

  it('shows numeric defaults as text and starts a required enum on its first value', () => {
    const state = initialState(rootOf(planTripSchema))
    expect(state.fields.steps).toEqual(text('4'))
    expect(state.fields.mode).toEqual({ kind: 'choice', index: 0 })
  })

  it('gives new array items their own defaults', () => {
    const root = rootOf(orderSchema)
    const lines = arrayField(root, 'lines')
    const state = edit(initialState(root), ['lines'], (current) => addItem(lines, current))
    expect(state.fields.lines).toMatchObject({
      items: [{ value: { fields: { sku: text(''), quantity: text('1') } } }],
    })
  })

  it('shows an object-level default, and leaves it to the server while untouched', () => {
    const root = rootOf({
      type: 'object',
      properties: {
        range: {
          type: 'object',
          properties: { from: { type: 'integer' }, to: { type: 'integer', default: 9 } },
          default: { from: 1 },
        },
      },
    })
    const state = initialState(root)
    expect(state.fields.range).toEqual({
      kind: 'object',
      fields: { from: text('1'), to: text('9') },
    })
    expect(toArguments(root, state).args).toEqual({})
    const edited = set(state, ['range', 'to'], text('5'))
    expect(toArguments(root, edited).args).toEqual({ range: { from: 1, to: 5 } })
  })
})

describe('toArguments', () => {
  it('omits optional fields left empty and sends defaults shown in the form', () => {
    const root = rootOf(planTripSchema)
    const { args, problems } = toArguments(root, initialState(root))
    expect(problems).toEqual([])
    // Required keys left empty are left out too; validation then reports them as required.
    expect(args).toEqual({ mode: 'train', stops: [], traveller: {}, steps: 4, delayMs: 150 })
  })

  it('builds the plan_trip arguments from filled-in state', () => {
    const root = rootOf(planTripSchema)
    const stops = arrayField(root, 'stops')
    let state = initialState(root)
    state = set(state, ['destination'], text('Oslo'))
    state = set(state, ['mode'], { kind: 'choice', index: 2 })
    state = edit(state, ['stops'], (current) => addItem(stops, current))
    state = edit(state, ['stops'], (current) => addItem(stops, current))
    state = set(state, ['stops', 0], text('Bergen'))
    state = set(state, ['stops', 1], text('Ålesund'))
    state = set(state, ['traveller', 'name'], text('Ada'))
    state = set(state, ['traveller', 'age'], text(' 36 '))
    state = set(state, ['steps'], text(''))
    expect(toArguments(root, state)).toEqual({
      args: {
        destination: 'Oslo',
        mode: 'ferry',
        stops: ['Bergen', 'Ålesund'],
        traveller: { name: 'Ada', age: 36 },
        delayMs: 150,
      },
      problems: [],
    })
  })

  it('parses numbers but passes text that is not one through for validation to name', () => {
    const root = rootOf({
      type: 'object',
      properties: { n: { type: 'number' }, i: { type: 'integer' }, x: { type: 'number' } },
    })
    let state = initialState(root)
    state = set(state, ['n'], text('-2.5e3'))
    state = set(state, ['i'], text('1.5'))
    state = set(state, ['x'], text('12abc'))
    expect(toArguments(root, state).args).toEqual({ n: -2500, i: 1.5, x: '12abc' })
  })

  it('reports a number input the browser could not read', () => {
    const root = rootOf({ type: 'object', properties: { count: { type: 'integer' } } })
    const state = set(initialState(root), ['count'], { kind: 'text', text: '', unreadable: true })
    expect(toArguments(root, state)).toEqual({
      args: {},
      problems: [{ path: 'count', message: 'must be an integer' }],
    })
  })

  it('sends booleans that are required or have a default, and optional ones only when true', () => {
    const root = rootOf({
      type: 'object',
      properties: {
        must: { type: 'boolean' },
        preset: { type: 'boolean', default: true },
        maybe: { type: 'boolean' },
      },
      required: ['must'],
    })
    const initial = initialState(root)
    expect(toArguments(root, initial).args).toEqual({ must: false, preset: true })
    let state = set(initial, ['preset'], { kind: 'boolean', checked: false })
    state = set(state, ['maybe'], { kind: 'boolean', checked: true })
    expect(toArguments(root, state).args).toEqual({ must: false, preset: false, maybe: true })
  })

  it('sends null for an empty nullable field whose key is required, and omits it otherwise', () => {
    const root = rootOf({
      type: 'object',
      properties: {
        note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        tag: { type: ['string', 'null'] },
        level: { enum: ['a', 'b', null] },
      },
      required: ['note', 'level'],
    })
    const initial = initialState(root)
    expect(initial.fields.level).toEqual({ kind: 'choice', index: null })
    expect(toArguments(root, initial).args).toEqual({ note: null, level: null })
    const filled = set(set(initial, ['note'], text('hi')), ['tag'], text('x'))
    expect(toArguments(root, filled).args).toEqual({ note: 'hi', tag: 'x', level: null })
  })

  it('omits an optional object while it is untouched, and sends it once edited', () => {
    const root = rootOf({
      type: 'object',
      properties: {
        page: {
          type: 'object',
          properties: { cursor: { type: 'string' }, size: { type: 'integer', default: 10 } },
          required: ['cursor'],
        },
      },
    })
    const initial = initialState(root)
    expect(toArguments(root, initial).args).toEqual({})
    const edited = set(initial, ['page', 'size'], text('20'))
    expect(toArguments(root, edited).args).toEqual({ page: { size: 20 } })
  })

  it('omits an optional empty array unless its default had items', () => {
    const root = rootOf(orderSchema)
    const initial = initialState(root)
    expect(toArguments(root, initial).args.tags).toEqual(['web'])
    const cleared = edit(initial, ['tags'], (current) => removeItem(current, 0))
    expect(toArguments(root, cleared).args.tags).toEqual([])
    const plain = rootOf({
      type: 'object',
      properties: { list: { type: 'array', items: { type: 'string' } } },
    })
    expect(toArguments(plain, initialState(plain)).args).toEqual({})
  })

  it('reports an empty array item and keeps the other items in place', () => {
    const root = rootOf(planTripSchema)
    const stops = arrayField(root, 'stops')
    let state = initialState(root)
    for (let i = 0; i < 3; i++) state = edit(state, ['stops'], (current) => addItem(stops, current))
    state = set(state, ['stops', 0], text('A'))
    state = set(state, ['stops', 2], text('C'))
    const { args, problems } = toArguments(root, state)
    expect(args.stops).toEqual(['A', null, 'C'])
    expect(problems).toEqual([{ path: 'stops[1]', message: 'enter a value or remove this item' }])
  })

  it('removes the chosen item and keeps the identity of the others', () => {
    const root = rootOf(planTripSchema)
    const stops = arrayField(root, 'stops')
    let state = initialState(root)
    for (const name of ['A', 'B', 'C']) {
      state = edit(state, ['stops'], (current) => addItem(stops, current))
      const count = state.fields.stops?.kind === 'array' ? state.fields.stops.items.length : 0
      state = set(state, ['stops', count - 1], text(name))
    }
    const before = state.fields.stops?.kind === 'array' ? state.fields.stops.items : []
    state = edit(state, ['stops'], (current) => removeItem(current, 1))
    const after = state.fields.stops?.kind === 'array' ? state.fields.stops.items : []
    expect(after.map((entry) => entry.id)).toEqual([before[0]?.id, before[2]?.id])
    expect(toArguments(root, state).args.stops).toEqual(['A', 'C'])
  })

  it('keeps a "__proto__" property an ordinary argument', () => {
    const root = rootOf({ type: 'object', properties: { ['__proto__']: { type: 'string' } } })
    const state = set(initialState(root), ['__proto__'], text('x'))
    const { args } = toArguments(root, state)
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype)
    expect(Object.hasOwn(args, '__proto__')).toBe(true)
    expect(JSON.stringify(args)).toBe('{"__proto__":"x"}')
  })
})

describe('fromArguments', () => {
  it('round-trips arguments through form state', () => {
    const root = rootOf(orderSchema)
    const args = {
      customer: { email: 'a@b.c', address: { city: 'Oslo' } },
      lines: [{ sku: 'X1', quantity: 2, gift: true }],
      priority: 'high',
      note: null,
      express: false,
      discount: 0.25,
      tags: ['a', 'b'],
    }
    const reading = fromArguments(root, args)
    if (!reading.ok) throw new Error(JSON.stringify(reading.errors))
    expect(toArguments(root, reading.state)).toEqual({ args, problems: [] })
  })

  it('fills keys the arguments leave out from defaults', () => {
    const root = rootOf(planTripSchema)
    const reading = fromArguments(root, { destination: 'Rome' })
    if (!reading.ok) throw new Error(JSON.stringify(reading.errors))
    expect(toArguments(root, reading.state).args).toMatchObject({ destination: 'Rome', steps: 4 })
  })

  it('refuses a string given for a number, which a number input cannot show', () => {
    const root = rootOf(planTripSchema)
    expect(fromArguments(root, { steps: '5' })).toEqual({
      ok: false,
      errors: [{ path: 'steps', message: 'the form cannot show this value (expected an integer)' }],
    })
  })

  it('refuses values the form cannot show', () => {
    const root = rootOf(planTripSchema)
    expect(
      fromArguments(root, {
        destination: 3,
        mode: 'plane',
        stops: 'Paris',
        traveller: { name: 'Ada', nickname: 'A' },
        extra: true,
      }),
    ).toEqual({
      ok: false,
      errors: [
        { path: 'extra', message: 'the form has no field for this key' },
        { path: 'destination', message: 'the form cannot show this value (expected text)' },
        {
          path: 'mode',
          message: 'the form cannot show this value (expected one of "train", "bus", "ferry")',
        },
        { path: 'stops', message: 'the form cannot show this value (expected a list)' },
        { path: 'traveller.nickname', message: 'the form has no field for this key' },
      ],
    })
  })
})
