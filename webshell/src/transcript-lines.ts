// The one-line rows of prompt gets, resource reads and subscriptions, and server log messages:
// their text is made once, when the event arrives, so showing them costs no more than a notice.

import type {
  AppEventBody,
  ClientRef,
  LogLevel,
  OfferingEvent,
  ServerLogEvent,
  StoredBody,
  TranscriptEvent,
} from '../../daemon/src/protocol/index.js'

export type LineTone = 'dim' | 'info' | 'warning' | 'error'

/** A log message shown on its call's card. */
export interface LogEntry {
  seq: number
  time: string
  level: LogLevel
  tone: LineTone
  text: string
}

export interface EventLineRow {
  kind: 'line'
  key: string
  seq: number
  time: string
  /** The event's type. */
  event: OfferingEvent['type'] | AppEventBody['type'] | 'server.log' | 'unknown'
  tone: LineTone
  text: string
  /** The stored body, shown on demand. */
  body: Record<string, unknown> | null
  /** The resource the line is about, to open in its server's Resources pane. */
  resource: { server: string; uri: string } | null
  /**
   * An App's own words (`app.message`), shown set apart after who says them rather than as
   * `text`: `text` on one line, as `app-says.ts` makes it.
   */
  said?: { who: string; text: string }
}

/** Server text shown on one line is cut here. */
const DATA_MAX_CHARS = 500

type Event<T extends { type: string }> = Extract<TranscriptEvent, { type: T['type'] }>

/** Makes the line of one event: its tone, its text and the body it may open to. */
export function lineMaker(event: {
  seq: number
  time: string
  type: EventLineRow['event']
}): (tone: LineTone, text: string, body?: Record<string, unknown> | null) => EventLineRow {
  return (tone, text, body = null) => ({
    kind: 'line',
    key: `l${event.seq}`,
    seq: event.seq,
    time: event.time,
    event: event.type,
    tone,
    text,
    body,
    resource: null,
  })
}

export function offeringLine(event: Event<OfferingEvent>): EventLineRow {
  const by = byWhom(event.client)
  const line = lineMaker(event)
  switch (event.type) {
    case 'prompt.got':
      return line(
        'dim',
        `prompt ${event.prompt} of server ${event.server} got${by}: ${promptSummary(event.result)}`,
        event.result.kept ? event.result.body : null,
      )
    case 'prompt.failed':
      return line(
        'error',
        `prompt ${event.prompt} of server ${event.server} failed${by}: ${event.error.message}`,
      )
    case 'resource.read_failed':
      return line(
        'error',
        `reading ${event.uri} of ${event.server} failed${by}: ${event.error.message}`,
      )
    case 'resource.read':
      return {
        ...line('dim', `read ${event.uri} of ${event.server}${by}: ${readSummary(event.result)}`),
        resource: { server: event.server, uri: event.uri },
      }
    case 'resource.subscribed':
    case 'resource.unsubscribed':
    case 'resource.updated': {
      const said =
        event.type === 'resource.subscribed'
          ? `subscribed to ${event.uri} of ${event.server}${by}`
          : event.type === 'resource.unsubscribed'
            ? `unsubscribed from ${event.uri} of ${event.server}${by}`
            : `${event.uri} of ${event.server} changed`
      return { ...line('dim', said), resource: { server: event.server, uri: event.uri } }
    }
    default:
      return unhandled(event)
  }
}

/** A log message as a line of its own. */
export function logLine(event: Event<ServerLogEvent>): EventLineRow {
  return {
    kind: 'line',
    key: `l${event.seq}`,
    seq: event.seq,
    time: event.time,
    event: event.type,
    tone: logTone(event.level),
    text: `${event.server} log ${logText(event)}`,
    body: null,
    resource: null,
  }
}

/** A log message for its call's card. */
export function logEntry(event: Event<ServerLogEvent>): LogEntry {
  return {
    seq: event.seq,
    time: event.time,
    level: event.level,
    tone: logTone(event.level),
    text: `log ${logText(event)}`,
  }
}

/**
 * Takes `never`, so a switch over event types that misses one does not compile; a type a newer
 * daemon records is still shown, by its name, rather than dropped.
 */
export function unhandled(event: never): EventLineRow {
  const { seq, time, type } = event as { seq: number; time: string; type: unknown }
  const base = { kind: 'line', key: `l${seq}`, seq, time, body: null, resource: null } as const
  return { ...base, event: 'unknown', tone: 'dim', text: `event ${String(type)}` }
}

function logText(event: ServerLogEvent): string {
  const logger = event.logger === null ? '' : ` (${event.logger})`
  return `${event.level}${logger}: ${cut(dataText(event.data))}`
}

export function logTone(level: LogLevel): LineTone {
  if (level === 'debug') return 'dim'
  if (level === 'info' || level === 'notice') return 'info'
  return level === 'warning' ? 'warning' : 'error'
}

export function dataText(data: unknown): string {
  if (typeof data === 'string') return data
  try {
    return JSON.stringify(data) ?? String(data)
  } catch {
    return String(data)
  }
}

export function cut(text: string): string {
  return text.length <= DATA_MAX_CHARS ? text : `${text.slice(0, DATA_MAX_CHARS)}…`
}

function byWhom(client: ClientRef | null): string {
  return client === null ? '' : ` by ${client.label}`
}

function promptSummary(result: StoredBody): string {
  if (!result.kept) return `${size(result.bytes)}, not kept`
  const messages = result.body.messages
  const count = Array.isArray(messages) ? messages.length : 0
  return `${count} ${count === 1 ? 'message' : 'messages'}`
}

function readSummary(result: StoredBody): string {
  if (!result.kept) return `${size(result.bytes)}, not kept`
  const contents = Array.isArray(result.body.contents) ? (result.body.contents as unknown[]) : []
  let texts = 0
  let blobs = 0
  let bytes = 0
  const encoder = new TextEncoder()
  for (const item of contents) {
    const content = item as { text?: unknown; blob?: unknown }
    if (typeof content.text === 'string') {
      texts += 1
      bytes += encoder.encode(content.text).length
    } else if (typeof content.blob === 'string') {
      blobs += 1
      bytes += Math.floor((content.blob.replace(/=+$/, '').length * 3) / 4)
    }
  }
  const parts = [
    texts > 0 && `${texts} text ${texts === 1 ? 'content' : 'contents'}`,
    blobs > 0 && `${blobs} blob ${blobs === 1 ? 'content' : 'contents'}`,
    contents.length === 0 && 'no contents',
  ].filter((part): part is string => part !== false)
  return `${parts.join(', ')}, ${size(bytes)}`
}

export function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}
