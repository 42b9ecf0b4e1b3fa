// Text from servers and transcripts made safe to write to a terminal or a pipe: every character
// that could start a control sequence or reorder the line is shown as a visible stand-in, and
// JSON output escapes those same characters so it stays valid and equal once parsed.

// C0 controls except tab and newline, DEL, C1 controls, bidi embeddings, overrides and isolates,
// and lone surrogates (which a terminal would only see as U+FFFD).
const UNSAFE =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

function escaped(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`
}

function visible(char: string): string {
  const code = char.charCodeAt(0)
  // The Control Pictures block has one symbol per C0 control (␛ for ESC, ␍ for CR) and ␡ for DEL.
  if (code < 0x20) return String.fromCharCode(0x2400 + code)
  if (code === 0x7f) return '\u2421'
  if (code >= 0xd800 && code <= 0xdfff) return '\ufffd'
  // C1 and the bidi controls have no picture: shown as their JSON escape, e.g. \u009b.
  return escaped(char)
}

/** `text` with control characters shown visibly: `␛]52;…` instead of an OSC 52 sequence. */
export function terminalText(text: string): string {
  return text.replace(UNSAFE, visible)
}

// What JSON.stringify leaves raw: DEL, C1, the line and paragraph separators and the bidi
// controls (it escapes C0 and lone surrogates itself).
const JSON_RAW = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g

/** `JSON.stringify(value, null, indent)` with every control character escaped as `\uXXXX`. */
export function jsonText(value: unknown, indent?: number): string {
  // These characters only occur inside JSON strings, where an escape means the same character.
  return JSON.stringify(value, null, indent).replace(JSON_RAW, escaped)
}
