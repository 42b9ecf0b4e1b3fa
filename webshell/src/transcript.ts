// Folds transcript events into the rows the tab shows: one card per call (request, confirmation,
// progress and outcome together) and one line per notice or server status change. Rows are
// replaced, never edited, when an event changes them, so an unchanged row can skip rendering;
// the row list itself grows in place because a replay can bring tens of thousands of events.

import type {
  CallToolResult,
  ClientRef,
  ConfirmationOutcome,
  DisplayResult,
  ServerStatus,
  TranscriptEvent,
} from '../../daemon/src/protocol/index.js'
import { entryOf, OpenInputs, resolve, type InputEntry } from './inputs/input-entries.js'

export type CallState =
  'running' | 'confirming' | 'done' | 'error' | 'failed' | 'cancelled' | 'interrupted'

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
  failure: { code: string; message: string } | null
  /** The seq of the event that ended the call. */
  endSeq: number | null
  /** What the server asked of a person during the call, in order. */
  inputs: InputEntry[]
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

export type Row = CallRow | NoticeRow | StatusRow | InputRow

export class TranscriptModel {
  readonly rows: Row[] = []
  private readonly callIndex = new Map<string, number>()
  /** Where each input is shown: its call's row, or a row of its own. */
  private readonly inputIndex = new Map<string, number>()
  /** The inputs still waiting for an answer; the dialog shows them. */
  readonly openInputs = new OpenInputs()
  /** Bumped on every change, so a view knows when to render again. */
  version = 0
  lastSeq = 0

  private readonly listeners = new Set<() => void>()

  /** The session these rows belong to, once known. */
  constructor(public session?: string) {}

  apply(events: readonly TranscriptEvent[]): void {
    const inputsBefore = this.openInputs.version
    for (const event of events) this.applyOne(event)
    this.version += 1
    for (const listener of this.listeners) listener()
    if (this.openInputs.version !== inputsBefore) this.openInputs.notify()
  }

  /** Calls `listener` after every change; returns the function that stops it. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  hasCall(callId: string): boolean {
    return this.callIndex.has(callId)
  }

  /** The call row of `callId`, if the transcript holds it. */
  callRow(callId: string | null): CallRow | undefined {
    const index = callId === null ? undefined : this.callIndex.get(callId)
    const row = index === undefined ? undefined : this.rows[index]
    return row?.kind === 'call' ? row : undefined
  }

  private applyOne(event: TranscriptEvent): void {
    if (event.seq <= this.lastSeq) return
    this.lastSeq = event.seq
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
        })
        return
      case 'input.requested': {
        const entry = entryOf(event)
        this.openInputs.apply(entry)
        const index = event.callId === null ? undefined : this.callIndex.get(event.callId)
        if (index !== undefined) {
          this.inputIndex.set(entry.inputId, index)
          return this.update(event.callId ?? '', (row) => ({ inputs: [...row.inputs, entry] }))
        }
        this.inputIndex.set(entry.inputId, this.rows.length)
        this.rows.push({
          kind: 'input',
          key: `i${entry.inputId}`,
          seq: event.seq,
          time: event.time,
          input: entry,
        })
        return
      }
      case 'input.resolved':
        return this.resolveInput(event)
      case 'confirmation.requested':
        return this.update(event.callId, () => ({
          state: 'confirming',
          confirmation: { state: 'pending' },
        }))
      case 'confirmation.resolved':
        return this.update(event.callId, (row) => ({
          state: row.state === 'confirming' ? 'running' : row.state,
          confirmation: { state: 'resolved', outcome: event.outcome, by: event.client },
        }))
      case 'call.progress':
        return this.update(event.callId, () => ({
          progress: {
            progress: event.progress,
            ...(event.total === undefined ? {} : { total: event.total }),
            ...(event.message === undefined ? {} : { message: event.message }),
          },
        }))
      case 'call.result':
        return this.update(event.callId, () => ({
          state: event.result.isError === true ? 'error' : 'done',
          result: event.result,
          display: event.display,
          endSeq: event.seq,
        }))
      case 'call.failed':
        return this.update(event.callId, () => ({
          state: 'failed',
          failure: event.error,
          endSeq: event.seq,
        }))
      case 'call.cancelled':
        return this.update(event.callId, () => ({ state: 'cancelled', endSeq: event.seq }))
      case 'call.interrupted':
        return this.update(event.callId, () => ({ state: 'interrupted', endSeq: event.seq }))
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
        return
      case 'notice':
        this.rows.push({
          kind: 'notice',
          key: `n${event.seq}`,
          seq: event.seq,
          time: event.time,
          level: event.level,
          message: event.message,
        })
        return
    }
  }

  private resolveInput(event: Extract<TranscriptEvent, { type: 'input.resolved' }>): void {
    const index = this.inputIndex.get(event.inputId)
    const row = index === undefined ? undefined : this.rows[index]
    if (index === undefined || row === undefined) return
    if (row.kind === 'input') {
      const input = resolve(row.input, event)
      this.openInputs.apply(input)
      this.rows[index] = { ...row, input }
    } else if (row.kind === 'call') {
      const inputs = row.inputs.map((entry) =>
        entry.inputId === event.inputId ? resolve(entry, event) : entry,
      )
      for (const entry of inputs) if (entry.inputId === event.inputId) this.openInputs.apply(entry)
      this.rows[index] = { ...row, inputs }
    }
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
