// Which blobs the page reads as text, and which stay a download.

import { describe, expect, it } from 'vitest'
import { BLOB_TEXT_MAX_BYTES, blobText, isTextType } from './blob-text.js'

const utf8 = (text: string) => Buffer.from(text, 'utf8').toString('base64')
const bytes = (...values: number[]) => Buffer.from(values).toString('base64')

describe('blobText', () => {
  it('reads textual types as text', () => {
    for (const type of [
      'text/plain',
      'Text/Markdown; charset=UTF-8',
      'text/csv',
      'application/json',
      'application/ld+json',
      'application/xml',
      'image/svg+xml',
      'application/yaml',
      'application/javascript',
    ]) {
      expect(isTextType(type), type).toBe(true)
    }
    for (const type of ['application/octet-stream', 'image/png', 'application/pdf', 'audio/wav']) {
      expect(isTextType(type), type).toBe(false)
    }
  })

  it('decodes UTF-8 and pretty-prints JSON that parses', () => {
    expect(blobText(utf8('Grüße ✓\n'), 'text/plain')).toBe('Grüße ✓\n')
    expect(blobText(utf8('{"a":{"b":[1,2]}}'), 'application/json')).toBe(
      '{\n  "a": {\n    "b": [\n      1,\n      2\n    ]\n  }\n}',
    )
    expect(blobText(utf8('{"a":'), 'application/problem+json')).toBe('{"a":')
    // Only JSON types are reformatted.
    expect(blobText(utf8('{"a":1}'), 'text/plain')).toBe('{"a":1}')
  })

  it('decodes the declared charset', () => {
    expect(blobText(bytes(0x63, 0x61, 0x66, 0xe9), 'text/plain; charset=iso-8859-1')).toBe('café')
    expect(blobText(utf8('x'), 'text/plain; charset=no-such-charset')).toBeUndefined()
  })

  it('leaves binary, untyped, invalid and large blobs a download', () => {
    expect(blobText(utf8('hello'), undefined)).toBeUndefined()
    expect(blobText(utf8('hello'), 'application/octet-stream')).toBeUndefined()
    expect(blobText(bytes(0x63, 0xff, 0xfe), 'text/plain')).toBeUndefined()
    expect(blobText(bytes(0x61, 0x00, 0x62), 'text/plain')).toBeUndefined()
    expect(blobText(utf8('a'.repeat(BLOB_TEXT_MAX_BYTES)), 'text/plain')).toHaveLength(
      BLOB_TEXT_MAX_BYTES,
    )
    expect(blobText(utf8('a'.repeat(BLOB_TEXT_MAX_BYTES + 1)), 'text/plain')).toBeUndefined()
  })
})
