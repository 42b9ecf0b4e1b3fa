// Compaction: rewrites a transcript into a bounded form that keeps every call's meaning. Progress
// of finished calls is folded away, long strings and binary payloads are shortened with a marker,
// and App display results keep their type and fallback text with the HTML emptied.

import type { TranscriptEvent } from '../protocol/index.js'

/** Strings longer than this are cut, with a marker saying how much was removed. */
export const MAX_KEPT_STRING = 2000

/** The word a marker starts with: `compacted` in compaction, `truncated` for an over-limit event. */
export type ShortenedBy = 'compacted' | 'truncated'

function shortenString(value: string, by: ShortenedBy): string {
  if (value.length <= MAX_KEPT_STRING) return value
  return `${value.slice(0, MAX_KEPT_STRING)}… [${by}: ${value.length - MAX_KEPT_STRING} more characters]`
}

/** Base64 payloads of image and audio blocks and of blob resources carry no meaning to keep. */
function shortenBinary(
  value: Record<string, unknown>,
  by: ShortenedBy,
): Record<string, unknown> | undefined {
  const marker = (text: string) => `[${by}: ${text.length} base64 characters]`
  if ((value.type === 'image' || value.type === 'audio') && typeof value.data === 'string') {
    return { ...value, data: marker(value.data) }
  }
  if (typeof value.uri === 'string' && typeof value.blob === 'string') {
    return { ...value, blob: marker(value.blob) }
  }
  return undefined
}

/** A copy of `value` with long strings cut and binary payloads replaced, each with a marker. */
export function shorten(value: unknown, by: ShortenedBy = 'compacted'): unknown {
  if (typeof value === 'string') return shortenString(value, by)
  if (Array.isArray(value)) return value.map((item) => shorten(item, by))
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>
    const binary = shortenBinary(record, by)
    if (binary !== undefined) return binary
    return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, shorten(v, by)]))
  }
  return value
}

export function compactEvents(events: readonly TranscriptEvent[]): TranscriptEvent[] {
  const ended = new Set<string>()
  for (const event of events) {
    if (
      event.type === 'call.result' ||
      event.type === 'call.failed' ||
      event.type === 'call.cancelled' ||
      event.type === 'call.interrupted'
    ) {
      ended.add(event.callId)
    }
  }
  const out: TranscriptEvent[] = []
  for (const event of events) {
    if (event.type === 'call.progress' && ended.has(event.callId)) continue
    if (event.type === 'call.requested') {
      out.push({ ...event, arguments: shorten(event.arguments) as Record<string, unknown> })
    } else if (event.type === 'call.result') {
      const display =
        event.display.type === 'mcp_app'
          ? {
              ...event.display,
              html: '',
              toolInput: shorten(event.display.toolInput) as Record<string, unknown>,
              toolResult: shorten(event.display.toolResult) as Record<string, unknown>,
            }
          : event.display
      out.push({ ...event, result: shorten(event.result) as typeof event.result, display })
    } else {
      out.push(event)
    }
  }
  return out
}
