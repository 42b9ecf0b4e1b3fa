// Parses a settings file's text as JSON with comments and trailing commas, reporting the first syntax
// error as `file:line:column`.

import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser'
import { ErrorCode, FerryError } from '../errors.js'

const DESCRIPTIONS: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'expected a property name',
  ValueExpected: 'expected a value',
  ColonExpected: "expected ':'",
  CommaExpected: "expected ','",
  CloseBraceExpected: "expected '}'",
  CloseBracketExpected: "expected ']'",
  EndOfFileExpected: 'expected end of file',
  InvalidCommentToken: 'invalid comment',
  UnexpectedEndOfComment: 'unterminated comment',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'unterminated number',
  InvalidUnicode: 'invalid unicode escape',
  InvalidEscapeCharacter: 'invalid escape character',
  InvalidCharacter: 'invalid character in string',
}

export function parseSettingsJson(file: string, text: string): unknown {
  // Editors do not count a byte-order mark as a column, so neither do we.
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text
  const errors: ParseError[] = []
  const value: unknown = parse(source, errors, {
    allowTrailingComma: true,
    disallowComments: false,
    allowEmptyContent: false,
  })
  const first = errors[0]
  if (first !== undefined) {
    const { line, column } = lineAndColumn(source, first.offset)
    const code = printParseErrorCode(first.error)
    const description = DESCRIPTIONS[code] ?? code
    throw new FerryError(
      ErrorCode.ConfigParse,
      `${file}:${line}:${column}: invalid JSON (${description})`,
      { details: { file, line, column } },
    )
  }
  return value
}

/** 1-based line and column of a character offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1
  let lineStart = 0
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++
      lineStart = i + 1
    }
  }
  return { line, column: offset - lineStart + 1 }
}
