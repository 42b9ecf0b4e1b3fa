// The kinds of event line a person may hide from the transcript (as MCP Inspector lets them), and
// the rows left to show. A row's kind never changes once it is in the transcript, so the rows are
// sorted once each, as they arrive, however often the view renders.

import type { Row } from './transcript.js'

export const EVENT_KINDS = [
  { id: 'updates', label: 'Followed-resource updates' },
  { id: 'follows', label: 'Follows started and stopped' },
  { id: 'logs', label: 'MCP log messages' },
  { id: 'offerings', label: 'Prompt gets and resource reads' },
  { id: 'apps', label: 'What MCP Apps said and did' },
  { id: 'status', label: 'Server status changes' },
] as const

export type EventKind = (typeof EVENT_KINDS)[number]['id']

/** The kind a row may be hidden as; null for rows always shown (calls, questions, notices). */
export function kindOf(row: Row): EventKind | null {
  if (row.kind === 'status') return 'status'
  if (row.kind !== 'line') return null
  switch (row.event) {
    case 'resource.updated':
      return 'updates'
    case 'resource.subscribed':
    case 'resource.unsubscribed':
      return 'follows'
    case 'server.log':
      return 'logs'
    case 'prompt.got':
    case 'prompt.failed':
    case 'resource.read':
    case 'resource.read_failed':
      return 'offerings'
    case 'unknown':
      return null
    default:
      return 'apps'
  }
}

/** The rows of one transcript that a set of hidden kinds leaves, kept up as rows are added. */
export class ShownRows {
  /** Indexes into the transcript's rows, in order. */
  readonly indexes: number[] = []
  /** How many rows of each kind the transcript holds. */
  readonly counts = new Map<EventKind, number>()
  private sorted = 0

  constructor(
    private readonly rows: readonly Row[],
    readonly hidden: ReadonlySet<EventKind>,
  ) {}

  /** Sorts the rows added since the last call. */
  update(): this {
    for (; this.sorted < this.rows.length; this.sorted++) {
      const kind = kindOf(this.rows[this.sorted] as Row)
      if (kind !== null) this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1)
      if (kind === null || !this.hidden.has(kind)) this.indexes.push(this.sorted)
    }
    return this
  }

  /** How many rows the hidden kinds keep out of view. */
  hiddenCount(): number {
    let hidden = 0
    for (const kind of this.hidden) hidden += this.counts.get(kind) ?? 0
    return hidden
  }
}
