// The attach screen's feed: transcript events folded into one entry per call, plus dim lines for
// server status and notices, plus what this terminal printed itself. Pure; bounded in length.

import type {
  ConfirmationOutcome,
  TranscriptEvent,
  TranscriptEventBody,
} from '../../protocol/index.js'
import { appEventText } from '../app-event-text.js'
import { formatResult } from '../format.js'
import { questionEndText, questionName } from '../input-view.js'
import { SETTINGS_RECOVERED_TEXT, settingsProblemText } from '../../protocol/settings-says.js'

export type CallState =
  | 'requested'
  | 'confirming'
  | 'running'
  | 'done'
  | 'error'
  | 'failed'
  | 'cancelled'
  | 'interrupted'

export interface CallEntry {
  kind: 'call'
  key: string
  callId: string
  tool: string
  server: string
  arguments: Record<string, unknown>
  /** Who called, e.g. `ferry call (pid 42)`; null when the daemon itself did. */
  caller: string | null
  time: string
  state: CallState
  progress: { progress: number; total?: number; message?: string } | null
  confirmation: { outcome: ConfirmationOutcome; by: string | null } | null
  /** Result text (text blocks; other kinds summarised), or the failure message. */
  output: string | null
  /** Said of a result that has more to it than text, e.g. an MCP App. */
  note: string | null
}

export type LineTone = 'dim' | 'info' | 'warning' | 'error'

export interface LineEntry {
  kind: 'line'
  key: string
  tone: LineTone
  text: string
  /** The question a server asked, on its line: named again when it ends. */
  question?: { inputId: string; name: string }
}

/** Lines printed by a command of this terminal (`/tools`, `/help`…). */
export interface OutputEntry {
  kind: 'output'
  key: string
  /** The command line that printed it. */
  title: string
  lines: string[]
}

export type FeedEntry = CallEntry | LineEntry | OutputEntry

/** Older entries are dropped: the screen shows only the tail and there is no scrollback. */
export const MAX_ENTRIES = 300

const ENDED: ReadonlySet<CallState> = new Set([
  'done',
  'error',
  'failed',
  'cancelled',
  'interrupted',
])

export function isRunning(entry: CallEntry): boolean {
  return !ENDED.has(entry.state)
}

function capped(feed: FeedEntry[]): FeedEntry[] {
  return feed.length > MAX_ENTRIES ? feed.slice(feed.length - MAX_ENTRIES) : feed
}

export function appendEntry(feed: FeedEntry[], entry: FeedEntry): FeedEntry[] {
  return capped([...feed, entry])
}

function updateCall(
  feed: FeedEntry[],
  callId: string,
  change: (entry: CallEntry) => CallEntry,
): FeedEntry[] {
  for (let i = feed.length - 1; i >= 0; i--) {
    const entry = feed[i]
    if (entry?.kind === 'call' && entry.callId === callId) {
      const next = feed.slice()
      next[i] = change(entry)
      return next
    }
  }
  // The call began before the first entry kept (or before this session's history): nothing to show.
  return feed
}

type Body<T extends TranscriptEventBody['type']> = Extract<TranscriptEvent, { type: T }>

function resultOf(entry: CallEntry, event: Body<'call.result'>): CallEntry {
  const text = formatResult(event.result)
  return {
    ...entry,
    state: event.result.isError === true ? 'error' : 'done',
    progress: null,
    output: text === '' ? null : text,
    // Never the App's HTML: only what became of it.
    note:
      event.display.type === 'mcp_app'
        ? 'shown as an MCP App in the WebShell'
        : (event.display.appNotShown ?? null),
  }
}

/** The feed after one more event. */
export function foldEvent(feed: FeedEntry[], event: TranscriptEvent): FeedEntry[] {
  const by = event.client?.label ?? null
  switch (event.type) {
    case 'call.requested':
      return appendEntry(feed, {
        kind: 'call',
        key: `call-${event.callId}-${event.seq}`,
        callId: event.callId,
        tool: event.tool,
        server: event.server,
        arguments: event.arguments,
        caller: by,
        time: event.time,
        state: 'requested',
        progress: null,
        confirmation: null,
        output: null,
        note: null,
      })
    case 'confirmation.requested':
      return updateCall(feed, event.callId, (e) => ({ ...e, state: 'confirming' }))
    case 'confirmation.resolved':
      return updateCall(feed, event.callId, (e) => ({
        ...e,
        state: isRunning(e) ? (event.outcome === 'deny' ? 'requested' : 'running') : e.state,
        confirmation: { outcome: event.outcome, by },
      }))
    case 'call.progress':
      return updateCall(feed, event.callId, (e) => ({
        ...e,
        state: isRunning(e) ? 'running' : e.state,
        progress: {
          progress: event.progress,
          ...(event.total === undefined ? {} : { total: event.total }),
          ...(event.message === undefined ? {} : { message: event.message }),
        },
      }))
    case 'call.result':
      return updateCall(feed, event.callId, (e) => resultOf(e, event))
    case 'call.failed':
      return updateCall(feed, event.callId, (e) => ({
        ...e,
        state: 'failed',
        progress: null,
        output: `${event.error.code}: ${event.error.message}`,
      }))
    case 'call.cancelled':
      return updateCall(feed, event.callId, (e) => ({ ...e, state: 'cancelled', progress: null }))
    case 'call.interrupted':
      return updateCall(feed, event.callId, (e) => ({ ...e, state: 'interrupted', progress: null }))
    case 'call.task':
      // How the gateway answers its client changes nothing about the call on this screen.
      return feed
    case 'input.requested':
      return appendEntry(feed, {
        kind: 'line',
        key: `event-${event.seq}`,
        tone: 'warning',
        text: `server ${event.server} asks (${event.kind}): ${event.message}`,
        question: { inputId: event.inputId, name: questionName(event) },
      })
    case 'grant.revoked':
      return appendEntry(feed, {
        kind: 'line',
        key: `event-${event.seq}`,
        tone: 'warning',
        text: `${event.reason}${by === null ? '' : ` (by ${by})`}`,
      })
    case 'input.resolved':
      return appendEntry(feed, {
        kind: 'line',
        key: `event-${event.seq}`,
        tone: 'dim',
        text: questionEndText(questionAsked(feed, event.inputId), event.action, by, event.reason),
      })
    case 'prompt.got':
      return appendEntry(feed, {
        kind: 'line',
        key: `event-${event.seq}`,
        tone: 'dim',
        text: `prompt ${event.prompt} of ${event.server}${by === null ? '' : ` got by ${by}`}`,
      })
    case 'prompt.failed':
      return appendEntry(feed, {
        kind: 'line',
        key: `event-${event.seq}`,
        tone: 'error',
        text: `prompt ${event.prompt} of ${event.server} failed: ${event.error.message}`,
      })
    case 'resource.read_failed':
      return appendEntry(feed, {
        kind: 'line',
        key: `event-${event.seq}`,
        tone: 'error',
        text: `reading ${event.uri} of ${event.server} failed: ${event.error.message}`,
      })
    case 'resource.read':
    case 'resource.subscribed':
    case 'resource.unsubscribed':
    case 'resource.updated':
      return appendEntry(feed, {
        kind: 'line',
        key: `event-${event.seq}`,
        tone: 'dim',
        text: `${event.type.slice('resource.'.length)} ${event.uri} of ${event.server}`,
      })
    case 'server.log':
      return appendEntry(feed, {
        kind: 'line',
        key: `event-${event.seq}`,
        tone:
          event.level === 'debug' || event.level === 'info' || event.level === 'notice'
            ? 'dim'
            : event.level === 'warning'
              ? 'warning'
              : 'error',
        text: `${event.server} log ${event.level}: ${typeof event.data === 'string' ? event.data : JSON.stringify(event.data)}`,
      })
    case 'server.status':
      return appendEntry(feed, {
        kind: 'line',
        key: `event-${event.seq}`,
        tone: event.status === 'failed' ? 'error' : 'dim',
        text: `server ${event.server} ${event.status}${event.error ? `: ${event.error}` : ''}`,
      })
    case 'notice':
      return appendEntry(feed, {
        kind: 'line',
        key: `event-${event.seq}`,
        tone: event.level === 'info' ? 'dim' : event.level,
        text: event.message,
      })
    case 'settings.failed':
      return appendEntry(feed, {
        kind: 'line',
        key: `event-${event.seq}`,
        tone: 'error',
        text: settingsProblemText(event.problem),
      })
    case 'settings.recovered':
      return appendEntry(feed, {
        kind: 'line',
        key: `event-${event.seq}`,
        tone: 'dim',
        text: SETTINGS_RECOVERED_TEXT,
      })
    case 'app.message':
    case 'app.model_context':
    case 'app.log':
    case 'app.link_opened':
    case 'app.download':
      return appendEntry(feed, {
        kind: 'line',
        key: `event-${event.seq}`,
        tone:
          event.type === 'app.log' && !['debug', 'info', 'notice'].includes(event.level)
            ? 'warning'
            : 'dim',
        text: appEventText(event),
      })
  }
}

/** Calls waiting for a confirmation, oldest first. */
export function pendingConfirmations(feed: FeedEntry[]): CallEntry[] {
  return feed.filter(
    (entry): entry is CallEntry => entry.kind === 'call' && entry.state === 'confirming',
  )
}

/** The most recently requested call that has not ended. */
export function latestRunningCall(feed: FeedEntry[]): CallEntry | undefined {
  for (let i = feed.length - 1; i >= 0; i--) {
    const entry = feed[i]
    if (entry?.kind === 'call' && isRunning(entry)) return entry
  }
  return undefined
}

/** The name of a question on the feed; undefined for one asked before the feed's window. */
function questionAsked(feed: FeedEntry[], inputId: string): string | undefined {
  for (const entry of feed) {
    if (entry.kind === 'line' && entry.question?.inputId === inputId) return entry.question.name
  }
  return undefined
}

export function hasCall(feed: FeedEntry[], callId: string): boolean {
  return feed.some((entry) => entry.kind === 'call' && entry.callId === callId)
}
