// Which inline images and audio clips from a tool result the page will play or display, and the
// data: URLs for them. Only common raster images and audio formats pass; SVG is refused because it
// can carry script.

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp'])

const AUDIO_TYPES = new Set([
  'audio/wav',
  'audio/x-wav',
  'audio/wave',
  'audio/mpeg',
  'audio/ogg',
  'audio/webm',
  'audio/mp4',
  'audio/aac',
  'audio/flac',
  'audio/x-flac',
])

interface Kind {
  refusal: string
  done: string
}
const IMAGE: Kind = { refusal: 'Image not shown', done: 'displayed' }
const AUDIO: Kind = { refusal: 'Audio not played', done: 'supported' }

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/

export type MediaCheck = { ok: true; src: string; mimeType: string } | { ok: false; reason: string }

/** The MIME type without parameters, in lower case: `Image/PNG; x=1` becomes `image/png`. */
export function baseMimeType(mimeType: string): string {
  return (mimeType.split(';')[0] ?? '').trim().toLowerCase()
}

/**
 * Canonical base64 without line breaks, or null when the text is not base64. Line breaks are
 * allowed because some encoders wrap their output; the URL-safe alphabet is not.
 */
export function normaliseBase64(data: string): string | null {
  const compact = data.replace(/[\t\n\f\r ]+/g, '')
  if (compact.length === 0 || compact.length % 4 !== 0 || !BASE64.test(compact)) return null
  return compact
}

/** How many bytes a valid base64 text decodes to. */
export function decodedSize(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0
  return (base64.length / 4) * 3 - padding
}

export function checkImage(data: unknown, mimeType: unknown): MediaCheck {
  return check(IMAGE, IMAGE_TYPES, data, mimeType)
}

export function checkAudio(data: unknown, mimeType: unknown): MediaCheck {
  return check(AUDIO, AUDIO_TYPES, data, mimeType)
}

function check(kind: Kind, allowed: Set<string>, data: unknown, mimeType: unknown): MediaCheck {
  if (typeof mimeType !== 'string' || mimeType.trim() === '') {
    return { ok: false, reason: `${kind.refusal}: it has no type` }
  }
  // The URL carries the allow-listed base type, never the server's own spelling of it.
  const type = baseMimeType(mimeType)
  if (!allowed.has(type)) {
    return { ok: false, reason: `${kind.refusal}: type ${clip(mimeType)} is not ${kind.done}` }
  }
  const base64 = typeof data === 'string' ? normaliseBase64(data) : null
  if (base64 === null) return { ok: false, reason: `${kind.refusal}: its data is not valid base64` }
  return { ok: true, src: `data:${type};base64,${base64}`, mimeType: type }
}

/** Server-supplied text in a message, cut short so a hostile value cannot flood the card. */
export function clip(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}
