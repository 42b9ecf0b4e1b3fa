import { describe, expect, it } from 'vitest'
import { SchemaValidator } from '../tools/schema-validator.js'
import { checkAccept, type InputQuestion } from './input-questions.js'

const question: InputQuestion = {
  kind: 'form',
  message: 'Accept the defaults',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', default: 'John Doe' },
      age: { type: 'integer', default: 30, maximum: 40 },
      verified: { type: 'boolean', default: true },
      note: { type: 'string' },
    },
    required: [],
  },
}

describe('checkAccept', () => {
  const validator = new SchemaValidator('content', () => {})

  it('fills a form field left out with its default, and keeps the values given', () => {
    const checked = checkAccept(
      question,
      { action: 'accept', content: { age: 31 } },
      validator,
      's',
    )
    const expected = { name: 'John Doe', age: 31, verified: true }
    expect(checked.result).toEqual({ action: 'accept', content: expected })
    expect(checked.recorded).toEqual({ content: expected })
    const bare = checkAccept(question, { action: 'accept' }, validator, 's')
    expect(bare.result).toEqual({ action: 'accept', content: { ...expected, age: 30 } })
  })

  it('still refuses a given value that breaks the schema', () => {
    expect(() =>
      checkAccept(question, { action: 'accept', content: { age: 99 } }, validator, 's'),
    ).toThrow(/age/)
  })
})
