import { describe, expect, it } from 'vitest'
import { jsonText, terminalText } from './terminal-text.js'

// Every code point that may not reach a terminal raw: C0 but tab and newline, DEL, C1.
const CONTROLS = [
  ...Array.from({ length: 0x20 }, (_, code) => code).filter(
    (code) => code !== 0x09 && code !== 0x0a,
  ),
  0x7f,
  ...Array.from({ length: 0x20 }, (_, i) => 0x80 + i),
].map((code) => String.fromCharCode(code))

const BIDI = [
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
]

describe('terminalText', () => {
  it('shows escape sequences with control pictures, so none reaches the terminal', () => {
    expect(terminalText('\x1b]52;c;aGk=\x07')).toBe('␛]52;c;aGk=␇')
    expect(terminalText('\x1b[2J\x1b[31mred\x1b[0m')).toBe('␛[2J␛[31mred␛[0m')
    expect(terminalText('a\rb\bc\x00d\x7f')).toBe('a␍b␈c␀d␡')
  })

  it('shows C1 controls and bidi overrides as \\u escapes', () => {
    expect(terminalText('\u009b31m \u009d0;t\u009c')).toBe('\\u009b31m \\u009d0;t\\u009c')
    expect(terminalText('a\u202eb\u2066c')).toBe('a\\u202eb\\u2066c')
  })

  it('keeps newlines, tabs, printable text, emoji and right-to-left letters as they are', () => {
    const text = 'line one\n\tindented — ünïcödé 日本語 שלום 👍🏽 ␛ already visible'
    expect(terminalText(text)).toBe(text)
  })

  it('replaces lone surrogates and keeps paired ones', () => {
    expect(terminalText('a\ud800b\udc00c')).toBe('a\ufffdb\ufffdc')
    expect(terminalText('\ud83d\udc4d')).toBe('👍')
  })

  it('leaves no control character behind and changes nothing on a second pass', () => {
    const hostile = [...CONTROLS, ...BIDI].join('x')
    const once = terminalText(hostile)
    for (const char of [...CONTROLS, ...BIDI]) expect(once).not.toContain(char)
    expect(terminalText(once)).toBe(once)
  })
})

describe('jsonText', () => {
  const value = {
    text: `${[...CONTROLS, ...BIDI, '\u2028', '\u2029'].join('')} plain`,
    nested: [{ 'key\u009b': '\ud800 lone' }],
    number: 1,
  }

  it('escapes every control character as \\uXXXX and parses back to the same value', () => {
    for (const indent of [undefined, 2]) {
      const json = jsonText(value, indent)
      expect(json).not.toMatch(
        // eslint-disable-next-line no-control-regex -- no control character may be left
        /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/,
      )
      expect(json).toContain('\\u009b')
      expect(json).toContain('\\u2028')
      expect(JSON.parse(json)).toEqual(value)
    }
  })

  it('is plain JSON.stringify for text without control characters', () => {
    const plain = { a: 'ünïcödé "quoted" \\ 👍', b: [1, null, true] }
    expect(jsonText(plain, 2)).toBe(JSON.stringify(plain, null, 2))
  })
})
