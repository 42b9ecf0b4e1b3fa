// Folds transcript events into the rows the tab shows: one card per call (request, confirmation,
// progress, log messages and outcome together) and one line per notice, settings problem, server
// status change, prompt get, resource read or subscription and other log message, and keeps the
// questions still waiting for an answer. Rows are replaced, never edited, when an event changes
// them, so an unchanged row can skip rendering; the row list itself grows in place because a
// replay can bring tens of thousands of events.

import type {
  CallToolResult,
  ClientRef,
  ConfirmationOutcome,
  DisplayResult,
  ServerStatus,
  TranscriptEvent,
  WireError,
} from '../../daemon/src/protocol/index.js'
import {
  appActivityPatch,
  appLine,
  appOrigin,
  type AppActivity,
  type AppOrigin,
} from './app-rows.js'
import {
  SETTINGS_RECOVERED_TEXT,
  settingsProblemText,
} from '../../daemon/src/protocol/settings-says.js'
import { entryOf, resolve, type InputEntry } from './inputs/input-entries.js'
import {
  logEntry,
  logLine,
  offeringLine,
  unhandled,
  type EventLineRow,
  type LogEntry,
} from './transcript-lines.js'

export type CallState =
  | 'running'
  | 'confirming'
  | 'done'
  | 'error'
  | 'failed'
  | 'cancelled'
  | 'interrupted'

export interface CallRow {
  kind: 'call'
  key: string
  callId: string
  seq: number
  time: string
  tool: string
  server: string
  serverTool: string
  arguments: Record<string, unknown>
  client: ClientRef | null
  state: CallState
  progress: { progress: number; total?: number; message?: string } | null
  confirmation:
    | { state: 'pending' }
    | { state: 'resolved'; outcome: ConfirmationOutcome; by: ClientRef | null }
    | null
  result: CallToolResult | null
  display: DisplayResult | null
  failure: WireError | null
  /** The seq of the event that ended the call. */
  endSeq: number | null
  /** What the server asked of a person during the call, in order. */
  inputs: InputEntry[]
  /** What the server logged during the call, in order. */
  logs: LogEntry[]
  /** Set when an MCP App made the call. */
  origin: AppOrigin | null
  /** What the App this call's result rendered did; null until it does something. */
  app: AppActivity | null
}

/** An input asked outside any call the transcript holds. */
export interface InputRow {
  kind: 'input'
  key: string
  seq: number
  time: string
  input: InputEntry
}

export interface NoticeRow {
  kind: 'notice'
  key: string
  seq: number
  time: string
  level: 'info' | 'warning' | 'error'
  message: string
}

export interface StatusRow {
  kind: 'status'
  key: string
  seq: number
  time: string
  server: string
  status: ServerStatus
  error: string | null
}

export type Row = CallRow | NoticeRow | StatusRow | InputRow | EventLineRow

/** What a question is about; each kind has its view in questions/views.ts. */
export type QuestionKind = 'confirmation' | 'input'

/** A question waiting for the person's answer, shown in the question bar until it closes. */
export interface OpenQuestion {
  kind: QuestionKind
  /** Unique among open questions: `confirmation:<callId>` or `input:<inputId>`. */
  id: string
  /** The call it belongs to, when known. */
  callId: string | null
  seq: number
}

export class TranscriptModel {
  readonly rows: Row[] = []
  private readonly callIndex = new Map<string, number>()
  /** Where each input is shown: its call's row, or a row of its own. */
  private readonly inputIndex = new Map<string, number>()
  private readonly open = new Map<string, OpenQuestion>()
  /** Made again only when the open questions change, so a view of them can skip rendering. */
  private openList: readonly OpenQuestion[] = []
  /** Bumped on every change, so a view knows when to render again. */
  version = 0
  lastSeq = 0

  /** The session these rows belong to, once known. */
  constructor(readonly session?: string) {}

  apply(events: readonly TranscriptEvent[]): void {
    const before = this.open.size
    let changed = false
    for (const event of events) changed = this.applyOne(event) || changed
    if (changed || this.open.size !== before) this.openList = [...this.open.values()]
    this.version += 1
  }

  hasCall(callId: string): boolean {
    return this.callIndex.has(callId)
  }

  callCount(): number {
    return this.callIndex.size
  }

  call(callId: string): CallRow | undefined {
    const index = this.callIndex.get(callId)
    return index === undefined ? undefined : (this.rows[index] as CallRow)
  }

  /** The input `inputId` as it stands, if the transcript holds it. */
  input(inputId: string): InputEntry | undefined {
    const index = this.inputIndex.get(inputId)
    const row = index === undefined ? undefined : this.rows[index]
    if (row?.kind === 'input') return row.input
    if (row?.kind === 'call') return row.inputs.find((input) => input.inputId === inputId)
    return undefined
  }

  /** The questions waiting for an answer, oldest first. */
  openQuestions(): readonly OpenQuestion[] {
    return this.openList
  }

  /** Opens or closes a question; true when the open set changed. */
  private setQuestion(id: string, question: OpenQuestion | null): boolean {
    if (question === null) return this.open.delete(id)
    if (this.open.has(id)) return false
    this.open.set(id, question)
    return true
  }

  /** Folds one event in; true when it opened or closed a question. */
  private applyOne(event: TranscriptEvent): boolean {
    if (event.seq <= this.lastSeq) return false
    this.lastSeq = event.seq
    const ended = (callId: string) => this.setQuestion(`confirmation:${callId}`, null)
    switch (event.type) {
      case 'call.requested':
        this.callIndex.set(event.callId, this.rows.length)
        this.rows.push({
          kind: 'call',
          key: `c${event.callId}`,
          callId: event.callId,
          seq: event.seq,
          time: event.time,
          tool: event.tool,
          server: event.server,
          serverTool: event.serverTool,
          arguments: event.arguments,
          client: event.client,
          state: 'running',
          progress: null,
          confirmation: null,
          result: null,
          display: null,
          failure: null,
          endSeq: null,
          inputs: [],
          logs: [],
          origin: appOrigin(event.app, (id) => this.call(id)?.tool),
          app: null,
        })
        return false
      case 'input.requested':
        return this.askInput(event)
      case 'input.resolved':
        return this.resolveInput(event)
      case 'confirmation.requested': {
        const row = this.call(event.callId)
        if (row === undefined || isEnded(row.state)) return false
        this.update(event.callId, () => ({
          state: 'confirming',
          confirmation: { state: 'pending' },
        }))
        return this.setQuestion(`confirmation:${event.callId}`, {
          kind: 'confirmation',
          id: `confirmation:${event.callId}`,
          callId: event.callId,
          seq: event.seq,
        })
      }
      case 'confirmation.resolved':
        this.update(event.callId, (row) => ({
          state: row.state === 'confirming' ? 'running' : row.state,
          confirmation: { state: 'resolved', outcome: event.outcome, by: event.client },
        }))
        return ended(event.callId)
      case 'call.progress':
        this.update(event.callId, () => ({
          progress: {
            progress: event.progress,
            ...(event.total === undefined ? {} : { total: event.total }),
            ...(event.message === undefined ? {} : { message: event.message }),
          },
        }))
        return false
      case 'call.result':
        this.update(event.callId, () => ({
          state: event.result.isError === true ? 'error' : 'done',
          result: event.result,
          display: event.display,
          endSeq: event.seq,
        }))
        return ended(event.callId)
      case 'call.failed':
        this.update(event.callId, () => ({
          state: 'failed',
          failure: event.error,
          endSeq: event.seq,
        }))
        return ended(event.callId)
      case 'call.cancelled':
        this.update(event.callId, () => ({ state: 'cancelled', endSeq: event.seq }))
        return ended(event.callId)
      case 'call.interrupted':
        this.update(event.callId, () => ({ state: 'interrupted', endSeq: event.seq }))
        return ended(event.callId)
      case 'server.status':
        this.rows.push({
          kind: 'status',
          key: `s${event.seq}`,
          seq: event.seq,
          time: event.time,
          server: event.server,
          status: event.status,
          error: event.error,
        })
        return false
      case 'notice':
        this.rows.push({
          kind: 'notice',
          key: `n${event.seq}`,
          seq: event.seq,
          time: event.time,
          level: event.level,
          message: event.message,
        })
        return false
      case 'settings.failed':
      case 'settings.recovered':
        this.rows.push({
          kind: 'notice',
          key: `n${event.seq}`,
          seq: event.seq,
          time: event.time,
          level: event.type === 'settings.failed' ? 'error' : 'info',
          message:
            event.type === 'settings.failed'
              ? settingsProblemText(event.problem)
              : SETTINGS_RECOVERED_TEXT,
        })
        return false
      case 'grant.revoked':
        this.rows.push({
          kind: 'notice',
          key: `n${event.seq}`,
          seq: event.seq,
          time: event.time,
          level: 'warning',
          message: `${event.reason}${event.client === null ? '' : ` (by ${event.client.label})`}`,
        })
        return false
      case 'call.task':
        // How the gateway answers its client changes nothing about the call on this screen.
        return false
      case 'prompt.got':
      case 'prompt.failed':
      case 'resource.read':
      case 'resource.read_failed':
      case 'resource.subscribed':
      case 'resource.unsubscribed':
      case 'resource.updated':
        this.rows.push(offeringLine(event))
        return false
      case 'server.log':
        if (event.callId !== null && this.callIndex.has(event.callId)) {
          const entry = logEntry(event)
          this.update(event.callId, (row) => ({ logs: [...row.logs, entry] }))
        } else {
          this.rows.push(logLine(event))
        }
        return false
      case 'app.message':
        this.rows.push(appLine(event, this.call(event.callId)?.tool ?? null))
        return false
      case 'app.model_context':
      case 'app.log':
      case 'app.link_opened':
      case 'app.download':
        if (this.callIndex.has(event.callId)) {
          this.update(event.callId, (row) => appActivityPatch(row, event))
        } else {
          this.rows.push(appLine(event, null))
        }
        return false
      default:
        this.rows.push(unhandled(event))
        return false
    }
  }

  private askInput(event: Extract<TranscriptEvent, { type: 'input.requested' }>): boolean {
    const entry = entryOf(event)
    const row = event.callId === null ? undefined : this.call(event.callId)
    if (row !== undefined) {
      this.inputIndex.set(entry.inputId, this.callIndex.get(row.callId) ?? -1)
      this.update(row.callId, (current) => ({ inputs: [...current.inputs, entry] }))
    } else {
      this.inputIndex.set(entry.inputId, this.rows.length)
      this.rows.push({
        kind: 'input',
        key: `i${entry.inputId}`,
        seq: event.seq,
        time: event.time,
        input: entry,
      })
    }
    const id = `input:${entry.inputId}`
    return this.setQuestion(id, { kind: 'input', id, callId: event.callId, seq: event.seq })
  }

  private resolveInput(event: Extract<TranscriptEvent, { type: 'input.resolved' }>): boolean {
    const index = this.inputIndex.get(event.inputId)
    const row = index === undefined ? undefined : this.rows[index]
    if (index !== undefined && row?.kind === 'input') {
      this.rows[index] = { ...row, input: resolve(row.input, event) }
    } else if (index !== undefined && row?.kind === 'call') {
      const inputs = row.inputs.map((input) =>
        input.inputId === event.inputId ? resolve(input, event) : input,
      )
      this.rows[index] = { ...row, inputs }
    }
    return this.setQuestion(`input:${event.inputId}`, null)
  }

  private update(callId: string, change: (row: CallRow) => Partial<CallRow>): void {
    const index = this.callIndex.get(callId)
    if (index === undefined) return
    const row = this.rows[index] as CallRow
    // An ended call keeps its outcome: a late confirmation or progress event does not reopen it.
    const patch = change(row)
    if (isEnded(row.state) && patch.state !== undefined) delete patch.state
    this.rows[index] = { ...row, ...patch }
  }
}

export function isEnded(state: CallState): boolean {
  return state !== 'running' && state !== 'confirming'
}
