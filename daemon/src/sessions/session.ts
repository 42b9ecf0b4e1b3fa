// One session: its metadata, its transcript in memory and on disk, and its live subscribers.
// Events get their seq when emitted and reach subscribers only after they are stored.

import type {
  ClientRef,
  SessionInfo,
  TranscriptEvent,
  TranscriptEventBody,
} from '../protocol/index.js'
import type { EventLog } from './event-log.js'

export interface SessionMeta {
  id: string
  name: string
  workspace: string
  isDefault: boolean
  createdAt: string
}

export type Subscriber = (event: TranscriptEvent) => void

export class Session {
  private readonly events: TranscriptEvent[]
  private head: number
  private storedHead: number
  private readonly subscribers = new Map<Subscriber, { canAnswer: boolean }>()

  constructor(
    public meta: SessionMeta,
    private readonly log: EventLog<TranscriptEvent>,
    loaded: TranscriptEvent[],
    readonly damaged: string | null,
  ) {
    this.events = loaded
    this.head = loaded.reduce((max, event) => Math.max(max, event.seq), 0)
    this.storedHead = this.head
  }

  get id(): string {
    return this.meta.id
  }

  info(): SessionInfo {
    return { ...this.meta, headSeq: this.storedHead, damaged: this.damaged }
  }

  /** Stores one event and then delivers it; resolves with the stored event. */
  async emit(body: TranscriptEventBody, client: ClientRef | null): Promise<TranscriptEvent> {
    const event = {
      seq: ++this.head,
      time: new Date().toISOString(),
      client,
      ...body,
    } as TranscriptEvent
    this.events.push(event)
    await this.log.append([event])
    // Appends resolve in order, so stored events are published in seq order.
    this.storedHead = event.seq
    for (const subscriber of this.subscribers.keys()) subscriber(event)
    return event
  }

  /** Stored events after `afterSeq`, oldest first. */
  eventsAfter(afterSeq: number, limit = Number.POSITIVE_INFINITY): TranscriptEvent[] {
    const out: TranscriptEvent[] = []
    for (const event of this.events) {
      if (event.seq > this.storedHead || out.length >= limit) break
      if (event.seq > afterSeq) out.push(event)
    }
    return out
  }

  /** Replays what the subscriber missed after `afterSeq`, then delivers live events. */
  subscribe(
    afterSeq: number,
    subscriber: Subscriber,
    options: { canAnswer: boolean } = { canAnswer: false },
  ): () => void {
    for (const event of this.eventsAfter(afterSeq)) subscriber(event)
    this.subscribers.set(subscriber, options)
    return () => this.subscribers.delete(subscriber)
  }

  /** Attached clients that may answer confirmations (not read-only). */
  answererCount(): number {
    let count = 0
    for (const options of this.subscribers.values()) if (options.canAnswer) count++
    return count
  }

  /** Calls that were requested and never ended (e.g. the daemon died while they ran). */
  unfinishedCalls(): string[] {
    const open = new Set<string>()
    for (const event of this.events) {
      if (event.type === 'call.requested') open.add(event.callId)
      else if ('callId' in event && isCallEnd(event.type)) open.delete(event.callId)
    }
    return [...open]
  }

  close(): Promise<void> {
    this.subscribers.clear()
    return this.log.close()
  }
}

function isCallEnd(type: TranscriptEvent['type']): boolean {
  return (
    type === 'call.result' ||
    type === 'call.failed' ||
    type === 'call.cancelled' ||
    type === 'call.interrupted'
  )
}
