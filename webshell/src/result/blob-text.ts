// Which blobs are read as text: a textual type, at most BLOB_TEXT_MAX_BYTES, bytes that decode
// cleanly in the declared charset (UTF-8 by default) and hold no NUL. JSON is pretty-printed when
// it parses. Tool results and the Resources pane both show such a blob this way.

import { baseMimeType, decodedSize } from './media.js'

/** A blob larger than this, decoded, stays a download: the page shows it, it never edits it. */
export const BLOB_TEXT_MAX_BYTES = 64 * 1024

const TEXT_APPLICATIONS = new Set([
  'json',
  'xml',
  'javascript',
  'ecmascript',
  'x-javascript',
  'yaml',
  'x-yaml',
  'toml',
  'sql',
  'graphql',
  'x-sh',
  'x-www-form-urlencoded',
])

/** Whether `mimeType` names text: `text/*`, JSON, XML, YAML and the like, `+json`/`+xml` too. */
export function isTextType(mimeType: string): boolean {
  const [top = '', sub = ''] = baseMimeType(mimeType).split('/')
  if (top === 'text' || /\+(?:json|xml|yaml)$/.test(sub)) return true
  return top === 'application' && TEXT_APPLICATIONS.has(sub)
}

function isJsonType(mimeType: string): boolean {
  const type = baseMimeType(mimeType)
  return type === 'application/json' || type.endsWith('+json')
}

/** The `charset` parameter of `mimeType`, or utf-8. */
function charsetOf(mimeType: string): string {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(mimeType)
  return match?.[1] ?? 'utf-8'
}

/** The bytes of canonical base64. */
export function base64Bytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64)
  const bytes = new Uint8Array(binary.length)
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index)
  return bytes
}

/**
 * The text of a blob (`base64` canonical), or undefined when it stays a download: no type or not
 * a textual one, over the bound, an unknown charset, bytes that do not decode, or a NUL in them.
 */
export function blobText(base64: string, mimeType: string | undefined): string | undefined {
  if (mimeType === undefined || !isTextType(mimeType)) return undefined
  if (decodedSize(base64) > BLOB_TEXT_MAX_BYTES) return undefined
  let text: string
  try {
    text = new TextDecoder(charsetOf(mimeType), { fatal: true }).decode(base64Bytes(base64))
  } catch {
    // An unknown charset, or bytes that are not text in it.
    return undefined
  }
  if (text.includes('\0')) return undefined
  if (!isJsonType(mimeType)) return text
  try {
    return JSON.stringify(JSON.parse(text), null, 2)
  } catch {
    return text
  }
}
