import { describe, expect, it } from 'vitest'
import {
  displayValue,
  fieldHint,
  fieldNamed,
  formContent,
  initialValues,
  isMasked,
  parseTyped,
  readForm,
  type FormField,
} from './input-form.js'

// The form server-everything's `trigger-elicitation-request` asks for (abridged descriptions).
const everything = {
  type: 'object',
  properties: {
    name: { title: 'String', type: 'string', description: 'Your full, legal name' },
    check: { title: 'Boolean', type: 'boolean' },
    firstLine: { type: 'string', default: 'It was a dark and stormy night.' },
    email: { type: 'string', format: 'email' },
    birthdate: { type: 'string', format: 'date' },
    integer: { type: 'integer', minimum: 1, maximum: 100, default: 42 },
    number: { type: 'number', minimum: 0, maximum: 1000, default: 3.14 },
    untitled: { type: 'string', enum: ['Monica', 'Rachel', 'Joey'], default: 'Monica' },
    untitledMulti: {
      type: 'array',
      minItems: 1,
      maxItems: 3,
      items: { type: 'string', enum: ['Guitar', 'Piano', 'Violin'] },
      default: ['Guitar'],
    },
    titled: {
      type: 'string',
      oneOf: [
        { const: 'hero-1', title: 'Superman' },
        { const: 'hero-2', title: 'Green Lantern' },
      ],
      default: 'hero-1',
    },
    titledMulti: {
      type: 'array',
      items: {
        anyOf: [
          { const: 'fish-1', title: 'Tuna' },
          { const: 'fish-2', title: 'Salmon' },
        ],
      },
    },
    legacy: {
      type: 'string',
      enum: ['pet-1', 'pet-2'],
      enumNames: ['Cats', 'Dogs'],
      default: 'pet-1',
    },
    short: { type: 'string', minLength: 2, maxLength: 5 },
    secret: { type: 'string', format: 'password' },
  },
  required: ['name'],
}

const { fields } = readForm(everything)
const field = (key: string): FormField => {
  const found = fields.find((f) => f.key === key)
  if (found === undefined) throw new Error(`no field ${key}`)
  return found
}

describe('readForm', () => {
  it('reads every primitive kind in the order the server wrote them, marking the required one', () => {
    expect(fields.map((f) => [f.key, f.kind, f.required])).toEqual([
      ['name', 'text', true],
      ['check', 'boolean', false],
      ['firstLine', 'text', false],
      ['email', 'text', false],
      ['birthdate', 'text', false],
      ['integer', 'integer', false],
      ['number', 'number', false],
      ['untitled', 'choice', false],
      ['untitledMulti', 'choices', false],
      ['titled', 'choice', false],
      ['titledMulti', 'choices', false],
      ['legacy', 'choice', false],
      ['short', 'text', false],
      ['secret', 'text', false],
    ])
    expect(field('name')).toMatchObject({ title: 'String', description: 'Your full, legal name' })
    expect(field('firstLine')).toMatchObject({ title: 'firstLine', description: null })
  })

  it('labels untitled, titled (oneOf and anyOf) and legacy enumNames choices', () => {
    expect(field('untitled').options[1]).toEqual({ value: 'Rachel', label: 'Rachel' })
    expect(field('titled').options[1]).toEqual({ value: 'hero-2', label: 'Green Lantern' })
    expect(field('titledMulti').options[0]).toEqual({ value: 'fish-1', label: 'Tuna' })
    expect(field('legacy').options).toEqual([
      { value: 'pet-1', label: 'Cats' },
      { value: 'pet-2', label: 'Dogs' },
    ])
    expect(field('untitledMulti')).toMatchObject({ minItems: 1, maxItems: 3 })
  })

  it('pre-fills the defaults that fit their field and ignores those that do not', () => {
    expect(initialValues(fields)).toMatchObject({
      name: undefined,
      firstLine: 'It was a dark and stormy night.',
      integer: 42,
      number: 3.14,
      untitled: 'Monica',
      untitledMulti: ['Guitar'],
      titled: 'hero-1',
      legacy: 'pet-1',
    })
    const odd = readForm({
      type: 'object',
      properties: {
        a: { type: 'integer', default: 1.5 },
        b: { type: 'string', enum: ['x'], default: 'y' },
        c: { type: 'boolean', default: 'yes' },
        d: { type: 'array', items: { enum: ['x'] }, default: ['x', 'z'] },
      },
    })
    expect(odd.fields.map((f) => f.default)).toEqual([undefined, undefined, undefined, undefined])
  })

  it('keeps properties that are not primitive fields out, naming them', () => {
    const form = readForm({
      type: 'object',
      properties: {
        nested: { type: 'object', properties: {} },
        list: { type: 'array', items: { type: 'string' } },
        ok: { type: 'string' },
      },
    })
    expect(form.fields.map((f) => f.key)).toEqual(['ok'])
    expect(form.unsupported).toEqual(['nested', 'list'])
    expect(readForm(undefined)).toEqual({ fields: [], unsupported: [] })
  })
})

describe('fieldHint', () => {
  it('says what each field takes, with its limits and format', () => {
    expect(fieldHint(field('name'))).toBe('text')
    expect(fieldHint(field('email'))).toBe('an email address')
    expect(fieldHint(field('birthdate'))).toBe('a date, YYYY-MM-DD')
    expect(fieldHint(field('integer'))).toBe('integer, 1 to 100')
    expect(fieldHint(field('number'))).toBe('number, 0 to 1000')
    expect(fieldHint(field('short'))).toBe('text, 2 to 5 characters')
    expect(fieldHint(field('check'))).toBe('yes or no')
    expect(fieldHint(field('titled'))).toBe('pick one')
    expect(fieldHint(field('untitledMulti'))).toBe('pick 1 to 3')
    expect(fieldHint(field('titledMulti'))).toBe('pick any')
    expect(fieldHint(field('secret'))).toBe('a password, not shown as typed')
    expect([isMasked(field('secret')), isMasked(field('name'))]).toEqual([true, false])
  })
})

describe('parseTyped', () => {
  it('turns typed text into a value of the field kind, empty text leaving the field unset', () => {
    expect(parseTyped(field('name'), 'Ada Lovelace')).toEqual({ value: 'Ada Lovelace' })
    expect(parseTyped(field('name'), '')).toEqual({ value: undefined })
    expect(parseTyped(field('integer'), ' 7 ')).toEqual({ value: 7 })
    expect(parseTyped(field('number'), '2.5')).toEqual({ value: 2.5 })
    expect(parseTyped(field('integer'), '')).toEqual({ value: undefined })
    expect(parseTyped(field('check'), 'Y')).toEqual({ value: true })
    expect(parseTyped(field('check'), 'no')).toEqual({ value: false })
  })

  it('picks choices by number, value or label', () => {
    expect(parseTyped(field('titled'), '2')).toEqual({ value: 'hero-2' })
    expect(parseTyped(field('titled'), 'hero-1')).toEqual({ value: 'hero-1' })
    expect(parseTyped(field('titled'), 'green lantern')).toEqual({ value: 'hero-2' })
    expect(parseTyped(field('legacy'), 'Dogs')).toEqual({ value: 'pet-2' })
    expect(parseTyped(field('untitledMulti'), '3, Guitar, 3')).toEqual({
      value: ['Violin', 'Guitar'],
    })
    expect(parseTyped(field('titledMulti'), '')).toEqual({ value: undefined })
  })

  it('says what to type instead when the text cannot be converted', () => {
    expect(parseTyped(field('integer'), 'forty')).toEqual({ error: 'integer: type a number' })
    expect(parseTyped(field('integer'), '4.5')).toEqual({ error: 'integer: type a whole number' })
    expect(parseTyped(field('check'), 'maybe')).toEqual({ error: 'Boolean: type y or n' })
    expect(parseTyped(field('titled'), '9')).toEqual({ error: 'titled: type one of 1 to 2' })
    expect(parseTyped(field('untitledMulti'), '1, Banjo')).toEqual({
      error: 'untitledMulti: "Banjo" is not one of 1 to 3',
    })
  })

  it('leaves limits and formats to the daemon: out of range or odd values are passed on', () => {
    expect(parseTyped(field('integer'), '500')).toEqual({ value: 500 })
    expect(parseTyped(field('email'), 'not-an-email')).toEqual({ value: 'not-an-email' })
  })
})

describe('formContent and displayValue', () => {
  it('sends every field with a value, in the schema order, and shows labels', () => {
    const values = { ...initialValues(fields), name: 'Ada', check: true, firstLine: undefined }
    const content = formContent(fields, values)
    expect(Object.keys(content)).toEqual([
      'name',
      'check',
      'integer',
      'number',
      'untitled',
      'untitledMulti',
      'titled',
      'legacy',
    ])
    expect(displayValue(field('titled'), 'hero-2')).toBe('Green Lantern')
    expect(displayValue(field('untitledMulti'), ['Guitar', 'Piano'])).toBe('Guitar, Piano')
    expect(displayValue(field('check'), false)).toBe('no')
    expect(displayValue(field('name'), undefined)).toBe('')
  })
})

describe('fieldNamed', () => {
  it('finds the field a refusal names, by its path first, then a quoted key, then a word', () => {
    expect(fieldNamed('content/number must be integer', fields)?.key).toBe('number')
    expect(fieldNamed("content must have required property 'name'", fields)?.key).toBe('name')
    expect(fieldNamed('`integer` must be at most 100', fields)?.key).toBe('integer')
    expect(fieldNamed('field "email" is not an email address', fields)?.key).toBe('email')
    expect(fieldNamed("'name' is required (the number field is fine)", fields)?.key).toBe('name')
    expect(fieldNamed('content.birthdate: not a date', fields)?.key).toBe('birthdate')
    expect(fieldNamed('something else went wrong', fields)).toBeUndefined()
  })
})
