// Validation of call arguments against the supported schema subset, and of raw JSON input.

import { describe, expect, it } from 'vitest'
import { orderSchema, planTripSchema } from './fixtures.js'
import { jsonErrorOffset } from './json-position.js'
import { analyseSchema, type ObjectField } from './schema-model.js'
import { matchPattern } from './pattern.js'
import { parseArgumentsJson, patternChecks, validateArguments } from './validate.js'

/** Patterns run directly: these tests choose their patterns. */
const direct = (pattern: string, value: string) => matchPattern(pattern, value)

function rootOf(schema: unknown): ObjectField {
  const analysis = analyseSchema(schema)
  if (!analysis.supported) throw new Error(`unexpectedly unsupported: ${analysis.reason}`)
  return analysis.root
}

function errorsFor(property: Record<string, unknown>, value: unknown, required = true) {
  const root = rootOf({
    type: 'object',
    properties: { x: property },
    required: required ? ['x'] : [],
  })
  return validateArguments(root, { x: value }, direct).map((error) => error.message)
}

const validTrip = {
  destination: 'Oslo',
  mode: 'bus',
  stops: ['Bergen'],
  traveller: { name: 'Ada', age: 36 },
  steps: 3,
}

describe('validateArguments', () => {
  it('accepts valid arguments', () => {
    expect(validateArguments(rootOf(planTripSchema), validTrip, direct)).toEqual([])
  })

  it('reports required keys, nested ones by their path', () => {
    expect(
      validateArguments(rootOf(planTripSchema), { ...validTrip, destination: undefined }, direct),
    ).toEqual([{ path: 'destination', message: 'must be text' }])
    const { destination: _destination, ...withoutDestination } = validTrip
    expect(
      validateArguments(rootOf(planTripSchema), { ...withoutDestination, traveller: {} }, direct),
    ).toEqual([
      { path: 'destination', message: 'required' },
      { path: 'traveller.name', message: 'required' },
    ])
    const order = rootOf(orderSchema)
    expect(
      validateArguments(
        order,
        {
          customer: { email: 'a@b.c', address: {} },
          lines: [{ sku: 'A', quantity: 1 }],
          note: null,
        },
        direct,
      ),
    ).toEqual([{ path: 'customer.address.city', message: 'required' }])
  })

  it('tells integers from numbers', () => {
    expect(errorsFor({ type: 'integer' }, 1.5)).toEqual(['must be an integer'])
    expect(errorsFor({ type: 'integer' }, 2)).toEqual([])
    expect(errorsFor({ type: 'number' }, 1.5)).toEqual([])
    expect(errorsFor({ type: 'number' }, '1.5')).toEqual(['must be a number'])
  })

  it('states the whole numeric rule when any part of it fails', () => {
    const count = { type: 'integer', minimum: 1 }
    expect(errorsFor(count, 0)).toEqual(['must be an integer ≥ 1'])
    expect(errorsFor(count, 1.5)).toEqual(['must be an integer ≥ 1'])
    expect(errorsFor(count, 'abc')).toEqual(['must be an integer ≥ 1'])
    expect(errorsFor(count, 1)).toEqual([])
    const steps = { type: 'integer', minimum: 1, maximum: 50 }
    expect(errorsFor(steps, 51)).toEqual(['must be an integer ≥ 1 and ≤ 50'])
    expect(errorsFor(steps, 50)).toEqual([])
  })

  it('checks exclusive bounds, in both spellings', () => {
    const ratio = { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 }
    expect(errorsFor(ratio, 0)).toEqual(['must be a number > 0 and < 1'])
    expect(errorsFor(ratio, 1)).toEqual(['must be a number > 0 and < 1'])
    expect(errorsFor(ratio, 0.5)).toEqual([])
    const draft4 = { type: 'number', minimum: 0, exclusiveMinimum: true }
    expect(errorsFor(draft4, 0)).toEqual(['must be a number > 0'])
    expect(errorsFor(draft4, 0.1)).toEqual([])
  })

  it('leaves out zod’s safe-integer bounds unless they are what failed', () => {
    const age = { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER }
    expect(errorsFor(age, -1)).toEqual(['must be an integer ≥ 0'])
    expect(errorsFor(age, 2 ** 60)).toEqual([
      `must be an integer ≥ 0 and ≤ ${Number.MAX_SAFE_INTEGER}`,
    ])
  })

  it('checks multipleOf with decimal steps', () => {
    expect(errorsFor({ type: 'number', multipleOf: 0.1 }, 0.3)).toEqual([])
    expect(errorsFor({ type: 'number', multipleOf: 0.1 }, 0.35)).toEqual([
      'must be a multiple of 0.1',
    ])
  })

  it('checks string length in characters, not UTF-16 units', () => {
    const name = { type: 'string', minLength: 2, maxLength: 4 }
    expect(errorsFor(name, 'a')).toEqual(['must be 2 to 4 characters'])
    expect(errorsFor(name, 'abcde')).toEqual(['must be 2 to 4 characters'])
    expect(errorsFor(name, '😀😀')).toEqual([])
    expect(errorsFor({ type: 'string', minLength: 1 }, '')).toEqual(['must not be empty'])
    expect(errorsFor({ type: 'string', minLength: 3 }, 'ab')).toEqual([
      'must be at least 3 characters',
    ])
    expect(errorsFor({ type: 'string', maxLength: 1 }, 'ab')).toEqual([
      'must be at most 1 character',
    ])
  })

  it('checks patterns as Unicode regular expressions, skipping invalid ones', () => {
    const zip = { type: 'string', pattern: '^[0-9]{5}$' }
    expect(errorsFor(zip, '1234')).toEqual(['must match the pattern ^[0-9]{5}$'])
    expect(errorsFor(zip, '12345')).toEqual([])
    expect(errorsFor({ type: 'string', pattern: '^\\p{Lu}' }, 'Émile')).toEqual([])
    expect(errorsFor({ type: 'string', pattern: '([' }, 'anything')).toEqual([])
    const email = { type: 'string', format: 'email', pattern: '^[^@]+@[^@]+$' }
    expect(errorsFor(email, 'nobody')).toEqual(['must be a valid email'])
  })

  it('runs no pattern itself: it asks for verdicts, and one without a verdict is skipped', () => {
    const order = rootOf(orderSchema)
    const args = {
      customer: { email: 'nobody', address: { city: 'Oslo', zip: '1' } },
      lines: [{ sku: 'A', quantity: 1 }],
      note: null,
    }
    expect(patternChecks(order, args)).toEqual([
      { path: 'customer.email', pattern: '^[^@\\s]+@[^@\\s]+$', value: 'nobody' },
      { path: 'customer.address.zip', pattern: '^[0-9]{5}$', value: '1' },
    ])
    expect(validateArguments(order, args, () => 'unchecked')).toEqual([])
    expect(
      validateArguments(order, args, (_pattern, _value, path) =>
        path === 'customer.email' ? 'mismatch' : 'unchecked',
      ),
    ).toEqual([{ path: 'customer.email', message: 'must be a valid email' }])
  })

  it('checks enum and const values', () => {
    const mode = { type: 'string', enum: ['train', 'bus'] }
    expect(errorsFor(mode, 'plane')).toEqual(['must be one of "train", "bus"'])
    expect(errorsFor(mode, 'bus')).toEqual([])
    expect(errorsFor({ enum: [1, 2] }, '1')).toEqual(['must be one of 1, 2'])
    expect(errorsFor({ const: 'v1' }, 'v2')).toEqual(['must be "v1"'])
  })

  it('accepts null only where the schema allows it', () => {
    expect(errorsFor({ type: ['string', 'null'] }, null)).toEqual([])
    expect(errorsFor({ anyOf: [{ type: 'integer' }, { type: 'null' }] }, null)).toEqual([])
    expect(errorsFor({ type: 'string' }, null)).toEqual(['must be text'])
    expect(errorsFor({ type: 'boolean' }, null)).toEqual(['must be true or false'])
  })

  it('checks item counts, uniqueness and each item by its index', () => {
    const list = { type: 'array', items: { type: 'string', minLength: 2 }, minItems: 1 }
    expect(errorsFor(list, [])).toEqual(['must have at least 1 item'])
    expect(errorsFor({ ...list, maxItems: 2 }, ['aa', 'bb', 'cc'])).toEqual([
      'must have at most 2 items',
    ])
    expect(errorsFor({ ...list, uniqueItems: true }, ['aa', 'bb', 'aa'])).toEqual([
      'must not repeat items (item 3 repeats item 1)',
    ])
    expect(errorsFor(list, 'aa')).toEqual(['must be a list'])
    const root = rootOf({ type: 'object', properties: { tags: list } })
    expect(validateArguments(root, { tags: ['ok', 'x'] }, direct)).toEqual([
      { path: 'tags[1]', message: 'must be at least 2 characters' },
    ])
  })

  it('validates arrays of objects down to their fields', () => {
    const order = rootOf(orderSchema)
    expect(
      validateArguments(
        order,
        {
          customer: { email: 'a@b.c', address: { city: 'Oslo', zip: '1' } },
          lines: [{ sku: 'A', quantity: 1 }, { quantity: 0 }, 'x'],
          note: 'n',
          discount: 2,
        },
        direct,
      ),
    ).toEqual([
      { path: 'customer.address.zip', message: 'must match the pattern ^[0-9]{5}$' },
      { path: 'lines[1].sku', message: 'required' },
      { path: 'lines[1].quantity', message: 'must be an integer > 0' },
      { path: 'lines[2]', message: 'must be an object' },
      { path: 'discount', message: 'must be a number ≥ 0 and ≤ 1' },
    ])
  })

  it('refuses unknown keys only where additionalProperties is false', () => {
    const order = rootOf(orderSchema)
    const valid = {
      customer: { email: 'a@b.c', address: { city: 'Oslo' }, vip: true },
      lines: [{ sku: 'A', quantity: 1 }],
      note: null,
    }
    expect(validateArguments(order, valid, direct)).toEqual([])
    expect(validateArguments(order, { ...valid, coupon: 'X' }, direct)).toEqual([
      { path: 'coupon', message: 'is not an accepted argument' },
    ])
  })
})

describe('parseArgumentsJson', () => {
  it('returns the object', () => {
    expect(parseArgumentsJson(' {"a": [1, {"b": null}]} ')).toEqual({
      ok: true,
      args: { a: [1, { b: null }] },
    })
  })

  it('locates a syntax error by line and column', () => {
    const reading = parseArgumentsJson('{\n  "a": 1\n  "b": 2\n}')
    expect(reading).toEqual({
      ok: false,
      error: {
        path: '',
        message:
          "Not valid JSON at line 3, column 3 (position 13): Expected ',' or '}' after property value",
      },
    })
  })

  it('locates errors the parser does not place, without echoing the whole text', () => {
    const unexpected = parseArgumentsJson('{"a":}')
    expect(unexpected.ok).toBe(false)
    if (unexpected.ok) return
    expect(unexpected.error.message).toMatch(/^Not valid JSON at line 1, column 6 \(position 5\)/u)
    expect(unexpected.error.message).not.toContain('is not valid JSON')
    // V8 quotes long input with an ellipsis.
    const long = parseArgumentsJson(`{"padding": "${'x'.repeat(40)}",\n "b": }`)
    expect(long).toMatchObject({
      error: { message: "Not valid JSON at line 2, column 7 (position 62): Unexpected token '}'" },
    })
    const truncated = parseArgumentsJson('{"a": [1, 2')
    expect(truncated.ok).toBe(false)
    if (truncated.ok) return
    expect(truncated.error.message).toMatch(/^Not valid JSON at line 1, column 12 \(position 11\)/u)
  })

  it('asks for an object when the JSON is something else', () => {
    expect(parseArgumentsJson('[1]')).toEqual({
      ok: false,
      error: { path: '', message: 'Arguments must be a JSON object ({ … }), not an array' },
    })
    expect(parseArgumentsJson('null')).toMatchObject({
      error: { message: 'Arguments must be a JSON object ({ … }), not null' },
    })
    expect(parseArgumentsJson('"x"')).toMatchObject({
      error: { message: 'Arguments must be a JSON object ({ … }), not a string' },
    })
    expect(parseArgumentsJson('  ')).toMatchObject({
      error: { message: 'Enter the arguments as a JSON object, e.g. {}' },
    })
  })
})

describe('jsonErrorOffset', () => {
  it('agrees with JSON.parse on what is valid', () => {
    const samples = [
      '{}',
      ' [1, -2.5e+3, "a\\u00e9\\n", true, false, null, {"k": []}] ',
      '{"a":1,}',
      '[01]',
      '"\\x"',
      '{"a" 1}',
      'tru',
      '1 2',
      '"line\nbreak"',
      '-',
      '[1.]',
    ]
    for (const sample of samples) {
      let valid = true
      try {
        JSON.parse(sample)
      } catch {
        valid = false
      }
      expect(jsonErrorOffset(sample) === undefined, sample).toBe(valid)
    }
  })

  it('points at the first offending character', () => {
    expect(jsonErrorOffset('{"a":1,}')).toBe(7)
    expect(jsonErrorOffset('{"a" 1}')).toBe(5)
    expect(jsonErrorOffset('[1, 2')).toBe(5)
    expect(jsonErrorOffset('{} x')).toBe(3)
  })
})
