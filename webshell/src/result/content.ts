// Reads a CallToolResult, which is untrusted JSON exactly as the server sent it, into a typed list
// of things to show. Every field is checked here so the view never has to trust the server; an
// item that does not fit the MCP shapes becomes a notice carrying its JSON instead.

import type { CallToolResult } from '../../../daemon/src/protocol/index.js'
import { blobText } from './blob-text.js'
import { checkAudio, checkImage, clip, decodedSize, normaliseBase64 } from './media.js'

/** Embedded resource texts longer than this many lines start collapsed. */
export const LONG_TEXT_LINES = 40

export type ResultItem =
  | { kind: 'text'; text: string }
  | { kind: 'image'; src: string; mimeType: string }
  | { kind: 'audio'; src: string; mimeType: string }
  | {
      kind: 'resource-link'
      label: string
      uri: string
      /** Set only for http and https addresses; anything else is shown, never followed. */
      href?: string
      mimeType?: string
      description?: string
      size?: number
    }
  /**
   * `resource` is the embedded resource as the server sent it, for the Resources pane to check.
   * `blobSize` is set for a blob read as text (see blob-text.ts): its size in bytes.
   */
  | {
      kind: 'resource-text'
      uri: string
      mimeType?: string
      text: string
      lines: number
      resource: Record<string, unknown>
      blobSize?: number
    }
  /** `size` is null when the blob is not valid base64. */
  | {
      kind: 'resource-blob'
      uri: string
      mimeType?: string
      size: number | null
      resource: Record<string, unknown>
    }
  | { kind: 'notice'; message: string; json?: string }

export interface ResultModel {
  isError: boolean
  items: ResultItem[]
  /** Pretty JSON of structuredContent, when the result has any. */
  structured?: string
}

export function readResult(result: CallToolResult): ResultModel {
  const model: ResultModel = {
    isError: result.isError === true,
    items: readContent(result.content),
  }
  const structured = result.structuredContent
  if (structured !== undefined && structured !== null) model.structured = toJson(structured)
  return model
}

function readContent(content: unknown): ResultItem[] {
  if (content === undefined || content === null) return []
  if (!Array.isArray(content)) {
    return [
      { kind: 'notice', message: 'The result’s content is not a list', json: toJson(content) },
    ]
  }
  return content.map(readItem)
}

export function readItem(item: unknown): ResultItem {
  if (!isRecord(item)) return unknown(item, 'Content item is not an object')
  switch (item.type) {
    case 'text':
      return typeof item.text === 'string' ? { kind: 'text', text: item.text } : malformed(item)
    case 'image':
    case 'audio':
      return readMedia(item, item.type)
    case 'resource_link':
      return readResourceLink(item)
    case 'resource':
      return readResource(item)
    default:
      return unknown(
        item,
        typeof item.type === 'string'
          ? `Content of type “${clip(item.type)}” is not shown`
          : 'Content item without a type is not shown',
      )
  }
}

function readMedia(item: Record<string, unknown>, kind: 'image' | 'audio'): ResultItem {
  const checked =
    kind === 'image' ? checkImage(item.data, item.mimeType) : checkAudio(item.data, item.mimeType)
  if (!checked.ok) return { kind: 'notice', message: checked.reason }
  return { kind, src: checked.src, mimeType: checked.mimeType }
}

function readResourceLink(item: Record<string, unknown>): ResultItem {
  const uri = item.uri
  if (typeof uri !== 'string') return malformed(item)
  const label = nonEmptyString(item.title) ?? nonEmptyString(item.name) ?? uri
  const link: Extract<ResultItem, { kind: 'resource-link' }> = { kind: 'resource-link', label, uri }
  const href = webHref(uri)
  if (href !== undefined) link.href = href
  const mimeType = nonEmptyString(item.mimeType)
  if (mimeType !== undefined) link.mimeType = mimeType
  const description = nonEmptyString(item.description)
  if (description !== undefined) link.description = description
  if (typeof item.size === 'number' && Number.isFinite(item.size) && item.size >= 0) {
    link.size = item.size
  }
  return link
}

function readResource(item: Record<string, unknown>): ResultItem {
  const resource = item.resource
  if (!isRecord(resource) || typeof resource.uri !== 'string') return malformed(item)
  const uri = resource.uri
  const mimeType = nonEmptyString(resource.mimeType)
  const withType = mimeType === undefined ? {} : { mimeType }
  if (typeof resource.text === 'string') {
    const text = resource.text
    return { kind: 'resource-text', uri, ...withType, text, lines: countLines(text), resource }
  }
  if (typeof resource.blob === 'string') {
    const base64 = normaliseBase64(resource.blob)
    // An empty blob is a valid, empty resource rather than broken base64.
    const size = resource.blob === '' ? 0 : base64 === null ? null : decodedSize(base64)
    const text = base64 === null || size === 0 ? undefined : blobText(base64, mimeType)
    if (text !== undefined && size !== null) {
      const lines = countLines(text)
      return { kind: 'resource-text', uri, ...withType, text, lines, resource, blobSize: size }
    }
    return { kind: 'resource-blob', uri, ...withType, size, resource }
  }
  return malformed(item)
}

/** The address to follow for an http(s) URI, or undefined for any other scheme or bad URI. */
export function webHref(uri: string): string | undefined {
  try {
    const url = new URL(uri)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined
  } catch {
    return undefined
  }
}

export function countLines(text: string): number {
  if (text === '') return 0
  const body = text.endsWith('\n') ? text.slice(0, -1) : text
  return body.split('\n').length
}

export function toJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value)
  } catch {
    return String(value)
  }
}

function malformed(item: Record<string, unknown>): ResultItem {
  return unknown(item, `Malformed ${clip(String(item.type))} content is not shown`)
}

function unknown(item: unknown, message: string): ResultItem {
  return { kind: 'notice', message, json: toJson(item) }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}
