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

export type Row = CallRow | NoticeRow | StatusRow

export class TranscriptModel {
  readonly rows: Row[] = []
  private readonly callIndex = new Map<string, number>()
  /** Bumped on every change, so a view knows when to render again. */
  version = 0
  lastSeq = 0

  private readonly listeners = new Set<() => void>()

  /** The session these rows belong to, once known. */
  constructor(public session?: string) {}

  apply(events: readonly TranscriptEvent[]): void {
    for (const event of events) this.applyOne(event)
    this.version += 1
    for (const listener of this.listeners) listener()
  }

  /** Calls `listener` after every change; returns the function that stops it. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  hasCall(callId: string): boolean {
    return this.callIndex.has(callId)
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
        })
        return
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
