// Transcript events: what a session records and every attached client receives, in `seq` order.
// Browser-safe: types only.

import type { WireError } from './errors.js'
import type { AppEventBody, AppOrigin } from './apps.js'
import type { ServerStatus } from './server-status.js'

import type { GrantRevokedEvent } from './grants.js'
import type { InputRequestedEvent, InputResolvedEvent } from './inputs.js'
import type { ServerLogEvent } from './observe.js'
import type { OfferingEvent } from './offerings.js'
import type { SettingsFailedEvent, SettingsRecoveredEvent } from './settings.js'

/** The model-visible result, exactly as the server returned it. */
export type CallToolResult = Record<string, unknown> & { isError?: boolean }

/** `mcp`: an MCP client of the gateway (`/mcp` or `ferry mcp`), named by its gateway token. */
export type ClientKind = 'cli' | 'attach' | 'webshell' | 'api' | 'mcp'

/** Who caused an event: one attached terminal, tab or script. */
export interface ClientRef {
  id: string
  kind: ClientKind
  /** Human label, e.g. `ferry call on tty /dev/pts/3`. */
  label: string
}

export type ConfirmationOutcome = 'allow_once' | 'allow_tool' | 'allow_server' | 'deny'

/**
 * The origins an MCP App may reach, from its resource's `_meta.ui.csp`: each entry is exactly
 * `scheme://host[:port]` (http, https, ws or wss; the host may start with one `*.` label).
 */
export interface AppCsp {
  /** fetch, XHR and WebSocket (`connect-src`). */
  connectDomains?: string[]
  /** Scripts, styles, images, fonts and media. */
  resourceDomains?: string[]
  /** Nested iframes (`frame-src`). */
  frameDomains?: string[]
  /** `base-uri`. */
  baseUriDomains?: string[]
  /** Readable by name; a checked CSP holds only the four directives above. */
  [directive: string]: string[] | undefined
}

/**
 * How a result is shown: as plain content (with the reason when the tool has an App that could
 * not be shown), or as an MCP App (its HTML is emptied by compaction).
 */
export type DisplayResult =
  | {
      type: 'plain'
      /** Why the tool's App is not shown, e.g. `App not shown: resource is 1.3 MiB, limit 1 MiB`. */
      appNotShown?: string
    }
  | {
      type: 'mcp_app'
      serverName: string
      /** The `ui://` resource the HTML was read from. */
      resourceUri: string
      /** The App's HTML document (UTF-8 text, at most 1 MiB). Never part of any model-visible output. */
      html: string
      csp: AppCsp
      /** Browser permissions the App asks for (`camera`, `microphone`, `geolocation`, `clipboardWrite`). */
      permissions: Record<string, unknown>
      prefersBorder: boolean | null
      /** The call's arguments. */
      toolInput: Record<string, unknown>
      /** The model-visible result, as in the event's `result`. */
      toolResult: Record<string, unknown>
      /** The result's text, for surfaces that cannot show the App. */
      fallbackText: string
    }

interface EventBase {
  seq: number
  time: string
  /** The client that caused the event; null for the daemon itself (server status, recovery). */
  client: ClientRef | null
  /**
   * Set when the event was over a bound and is stored shortened, saying what was dropped, e.g.
   * `nesting deeper than 64 levels`; the dropped parts carry a `[truncated: …]` marker in place.
   */
  truncated?: string
}

export type TranscriptEventBody =
  | {
      type: 'call.requested'
      callId: string
      tool: string
      server: string
      serverTool: string
      arguments: Record<string, unknown>
      /** Set when an MCP App made the call (through its tab, the event's client). */
      app?: AppOrigin
    }
  | {
      type: 'confirmation.requested'
      callId: string
      tool: string
      server: string
      /**
       * What the question was about, so an "always" answer binds to it: the server's connection
       * fingerprint (command, arguments, environment or URL and headers) and the tool's definition
       * fingerprint (name, input schema, annotations). Absent in transcripts written before they
       * were recorded; an "always" answer to such a question is not honoured.
       */
      serverFingerprint?: string
      toolFingerprint?: string
    }
  | { type: 'confirmation.resolved'; callId: string; outcome: ConfirmationOutcome }
  | { type: 'call.progress'; callId: string; progress: number; total?: number; message?: string }
  | {
      type: 'call.result'
      callId: string
      /** The model-visible result exactly as the server returned it (or Ferry's denial). */
      result: CallToolResult
      display: DisplayResult
    }
  | { type: 'call.failed'; callId: string; error: WireError }
  | { type: 'call.cancelled'; callId: string }
  | { type: 'call.interrupted'; callId: string }
  /**
   * A gateway client's call was answered with a task (the MCP Tasks extension) instead of its
   * result; the event's client owns the task. Recorded before the client hears of the task.
   */
  | { type: 'call.task'; callId: string; taskId: string }
  | { type: 'server.status'; server: string; status: ServerStatus; error: string | null }
  | { type: 'notice'; level: 'info' | 'warning' | 'error'; message: string }
  | SettingsFailedEvent
  | SettingsRecoveredEvent
  | GrantRevokedEvent
  | InputRequestedEvent
  | InputResolvedEvent
  | OfferingEvent
  | ServerLogEvent
  | AppEventBody

export type TranscriptEvent = EventBase & TranscriptEventBody

/** The event types that end a call. */
export const CALL_END_TYPES = [
  'call.result',
  'call.failed',
  'call.cancelled',
  'call.interrupted',
] as const

export type CallEndType = (typeof CALL_END_TYPES)[number]

/** Whether the event ends its call. */
export function isCallEnd<B extends { type: TranscriptEventBody['type'] }>(
  body: B,
): body is Extract<B, { type: CallEndType }> {
  return (CALL_END_TYPES as readonly string[]).includes(body.type)
}

export interface SessionInfo {
  id: string
  name: string
  workspace: string
  isDefault: boolean
  createdAt: string
  /** The last stored seq (0 for an empty session). */
  headSeq: number
  /** Set when a stored record could not be read back; the events after it are still there. */
  damaged: string | null
  /** Events up to this seq were compacted (shortened, progress folded); 0 if never. */
  compactedThrough: number
}

/** `GET /api/sessions/{id}/events`: stored events after a seq, oldest first. */
export interface EventsPage {
  session: string
  headSeq: number
  /** Events up to this seq are in compacted form; asking from inside that range gets them all. */
  compactedThrough: number
  events: TranscriptEvent[]
}
