// Where a refused answer's message lands in the form.

import { describe, expect, it } from 'vitest'
import { refusalError } from './refusal.js'

const keys = ['name', 'integer', 'number', 'titledSingleSelectEnum']

describe('refusalError', () => {
  it('puts the refusal on the field its message names', () => {
    expect(refusalError('integer: must be ≤ 100', keys)).toEqual({
      path: 'integer',
      message: 'must be ≤ 100',
    })
    expect(refusalError('`name` is required', keys)).toEqual({
      path: 'name',
      message: 'is required',
    })
  })

  it('takes the first field named, never a key inside another word', () => {
    expect(refusalError('number must be a number, not text', keys)).toEqual({
      path: 'number',
      message: 'must be a number, not text',
    })
    expect(refusalError('content.surname is not in the schema', keys)).toEqual({
      path: '',
      message: 'content.surname is not in the schema',
    })
  })

  it('keeps a message that names no field for the form as a whole', () => {
    expect(refusalError('the input was already answered', keys)).toEqual({
      path: '',
      message: 'the input was already answered',
    })
  })
})
