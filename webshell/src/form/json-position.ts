// Finds where JSON text stops being valid. Browsers' JSON.parse messages do not all give a
// position (V8 omits it for an unexpected token or end of input, Safari always does), so the JSON
// editor locates the error itself when the parser does not say.

class Stop {
  constructor(readonly offset: number) {}
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?/uy
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't'])

/** The offset of the first character that makes `text` invalid JSON; undefined if it is valid. */
export function jsonErrorOffset(text: string): number | undefined {
  let at = 0
  const stop = (): never => {
    throw new Stop(at)
  }
  const space = (): void => {
    while (at < text.length && ' \t\n\r'.includes(text.charAt(at))) at++
  }
  const expect = (char: string): void => {
    if (text.charAt(at) !== char) stop()
    at++
  }
  const string = (): void => {
    expect('"')
    for (;;) {
      if (at >= text.length) stop()
      const char = text.charAt(at)
      if (char === '"') {
        at++
        return
      }
      if (char === '\\') {
        at++
        const escape = text.charAt(at)
        if (escape === 'u') {
          if (!/^[0-9a-fA-F]{4}$/u.test(text.slice(at + 1, at + 5))) stop()
          at += 5
        } else if (ESCAPES.has(escape)) at++
        else stop()
      } else if (char < ' ') stop()
      else at++
    }
  }
  const value = (): void => {
    space()
    const char = text.charAt(at)
    if (char === '{') {
      at++
      space()
      if (text.charAt(at) === '}') {
        at++
        return
      }
      for (;;) {
        space()
        string()
        space()
        expect(':')
        value()
        space()
        if (text.charAt(at) === '}') {
          at++
          return
        }
        expect(',')
      }
    }
    if (char === '[') {
      at++
      space()
      if (text.charAt(at) === ']') {
        at++
        return
      }
      for (;;) {
        value()
        space()
        if (text.charAt(at) === ']') {
          at++
          return
        }
        expect(',')
      }
    }
    if (char === '"') return string()
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, at)) {
        at += word.length
        return
      }
    }
    NUMBER.lastIndex = at
    if (NUMBER.exec(text) === null) stop()
    at = NUMBER.lastIndex
  }
  try {
    value()
    space()
    return at < text.length ? at : undefined
  } catch (error) {
    if (error instanceof Stop) return error.offset
    throw error
  }
}
