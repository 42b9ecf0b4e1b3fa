// Reads a `resources/read` result, untrusted JSON as the server sent it, into things to show:
// texts (Markdown ones marked to be rendered), blobs (with their size, as text when small and
// textual, and as an image or audio clip when the type is one the page plays), and a notice
// carrying the JSON for anything that does not fit MCP's shapes.

import { base64Bytes, blobText } from '../result/blob-text.js'
import { toJson } from '../result/content.js'
import {
  baseMimeType,
  checkAudio,
  checkImage,
  clip,
  decodedSize,
  normaliseBase64,
} from '../result/media.js'

export { base64Bytes }

export type ResourcePart =
  | {
      kind: 'text'
      uri: string
      mimeType?: string
      text: string
      /** Rendered as Markdown, with its source a toggle away. */
      markdown: boolean
      /** Set when the text is a blob's, read as text: the blob, for its size and download. */
      blob?: { base64: string; size: number }
    }
  | {
      kind: 'blob'
      uri: string
      mimeType?: string
      /** Canonical base64, or null when the blob is not valid base64. */
      base64: string | null
      size: number | null
      /** A `data:` URL when the blob is an image or audio clip the page shows. */
      media?: { kind: 'image' | 'audio'; src: string }
    }
  | { kind: 'notice'; message: string; json?: string }

const MARKDOWN_TYPES = new Set(['text/markdown', 'text/x-markdown'])

/** Whether a text is Markdown: typed so, or untyped with a `.md` or `.markdown` path. */
export function isMarkdown(uri: string, mimeType: string | undefined): boolean {
  if (mimeType !== undefined) return MARKDOWN_TYPES.has(baseMimeType(mimeType))
  const path = uri.split(/[?#]/, 1)[0] ?? ''
  return /\.(?:md|markdown)$/i.test(path)
}

export function readContents(result: unknown): ResourcePart[] {
  const contents = isRecord(result) ? result.contents : undefined
  if (!Array.isArray(contents)) {
    return [{ kind: 'notice', message: 'The answer has no list of contents', json: toJson(result) }]
  }
  return contents.map(readPart)
}

export function readPart(part: unknown): ResourcePart {
  if (!isRecord(part) || typeof part.uri !== 'string') {
    return { kind: 'notice', message: 'A content without a URI is not shown', json: toJson(part) }
  }
  const uri = part.uri
  const mimeType =
    typeof part.mimeType === 'string' && part.mimeType !== '' ? part.mimeType : undefined
  const typed = mimeType === undefined ? {} : { mimeType }
  const markdown = isMarkdown(uri, mimeType)
  if (typeof part.text === 'string') {
    return { kind: 'text', uri, ...typed, text: part.text, markdown }
  }
  if (typeof part.blob !== 'string') {
    return {
      kind: 'notice',
      message: `The content of ${clip(uri)} has neither text nor blob`,
      json: toJson(part),
    }
  }
  const base64 = part.blob === '' ? '' : normaliseBase64(part.blob)
  const size = base64 === null ? null : base64 === '' ? 0 : decodedSize(base64)
  const text = base64 === null || size === 0 ? undefined : blobText(base64, mimeType)
  if (text !== undefined && base64 !== null && size !== null) {
    return { kind: 'text', uri, ...typed, text, markdown, blob: { base64, size } }
  }
  const blob: Extract<ResourcePart, { kind: 'blob' }> = {
    kind: 'blob',
    uri,
    ...typed,
    base64,
    size,
  }
  if (base64 !== null && base64 !== '' && mimeType !== undefined) {
    const image = checkImage(base64, mimeType)
    const audio = checkAudio(base64, mimeType)
    if (image.ok) blob.media = { kind: 'image', src: image.src }
    else if (audio.ok) blob.media = { kind: 'audio', src: audio.src }
  }
  return blob
}

/** A file name for saving `uri`: its last path segment, with only safe characters kept. */
export function downloadName(uri: string): string {
  const last =
    uri
      .split(/[/\\?#]/)
      .filter((segment) => segment !== '')
      .at(-1) ?? ''
  let decoded = last
  try {
    decoded = decodeURIComponent(last)
  } catch {
    // A malformed escape keeps the segment as it is.
  }
  const safe = decoded
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[.]+/, '')
    .slice(0, 100)
  return safe === '' || safe === '_' ? 'resource.bin' : safe
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
