import { describe, expect, it } from 'vitest'
import { ErrorCode, FerryError } from '../errors.js'
import { parseSettingsJson } from './parse-settings-json.js'

function parseError(text: string): FerryError {
  try {
    parseSettingsJson('/s.json', text)
  } catch (error) {
    if (error instanceof FerryError) return error
    throw error
  }
  throw new Error('expected a parse error')
}

describe('parseSettingsJson', () => {
  it('parses JSON with comments, trailing commas and a byte-order mark', () => {
    expect(parseSettingsJson('/s.json', '\uFEFF{ /* c */ "a": [1, 2,], }')).toEqual({ a: [1, 2] })
  })

  it('names the file, 1-based line and column and what was expected', () => {
    const error = parseError('{\n  "a": 1\n  "b": 2\n}')
    expect(error.code).toBe(ErrorCode.ConfigParse)
    expect(error.message).toBe("/s.json:3:3: invalid JSON (expected ',')")
    expect(error.details).toEqual({ file: '/s.json', line: 3, column: 3 })
  })

  it('rejects an empty file as a syntax error', () => {
    expect(parseError('  \n').message).toBe('/s.json:2:1: invalid JSON (expected a value)')
  })
})
