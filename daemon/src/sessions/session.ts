// One session: its metadata, its transcript in memory and on disk, and its live subscribers.
// Events get their seq when emitted, pass the event bounds before they enter memory or disk, and
// reach subscribers only after they are stored.

import {
  isCallEnd,
  type ClientRef,
  type SessionInfo,
  type TranscriptEvent,
  type TranscriptEventBody,
} from '../protocol/index.js'
import { compactEvents } from './compact.js'
import { boundEvent } from './event-bounds.js'
import type { EventLog } from './event-log.js'
import { ProgressCoalescer, type ProgressBody } from './progress-coalescer.js'

export interface SessionMeta {
  id: string
  name: string
  workspace: string
  isDefault: boolean
  createdAt: string
  compactedThrough?: number
}

export type Subscriber = (event: TranscriptEvent) => void

/** The stored form of an emitted body: same type, possibly shortened by the event bounds. */
export type StoredEvent<B extends TranscriptEventBody> = Extract<
  TranscriptEvent,
  { type: B['type'] }
>

/** What a session reports to the layer that owns it. */
export interface SessionHooks {
  /** Past this many stored bytes the session compacts itself. */
  compactAboveBytes: number
  onCompacted: (session: Session) => Promise<void>
  onCompactionFailed: (session: Session, error: unknown) => void
  /** The last attached client that could answer confirmations has gone. */
  onLastAnswererGone: (session: Session) => void
}

export class Session {
  private events: TranscriptEvent[]
  private head: number
  private storedHead: number
  private readonly subscribers = new Map<Subscriber, { canAnswer: boolean }>()

  private compacting: Promise<number> | undefined
  private bytesAfterCompaction = 0
  private isClosed = false
  private readonly progressGate = new ProgressCoalescer(
    (body) => void this.store([{ body, client: null }]).catch(() => {}),
  )

  constructor(
    public meta: SessionMeta,
    private readonly log: EventLog<TranscriptEvent>,
    loaded: TranscriptEvent[],
    readonly damaged: string | null,
    /** Past this many stored bytes the session compacts itself; `onCompacted` persists the fact. */
    private readonly hooks: SessionHooks,
  ) {
    this.events = loaded
    this.head = loaded.reduce((max, event) => Math.max(max, event.seq), 0)
    this.storedHead = this.head
  }

  get id(): string {
    return this.meta.id
  }

  info(): SessionInfo {
    return {
      ...this.meta,
      compactedThrough: this.meta.compactedThrough ?? 0,
      headSeq: this.storedHead,
      damaged: this.damaged,
    }
  }

  /**
   * Stores one event and then delivers it; resolves with the stored event, which is shortened
   * when it was over the event bounds. A call's end first stores the progress still held for it.
   */
  async emit<B extends TranscriptEventBody>(
    body: B,
    client: ClientRef | null,
  ): Promise<StoredEvent<B>> {
    const held = isCallEnd(body) ? this.progressGate.finish(body.callId) : undefined
    const stored = await this.store([
      ...(held === undefined ? [] : [{ body: held, client: null }]),
      { body, client },
    ])
    return stored[stored.length - 1] as StoredEvent<B>
  }

  /** Stores a call's progress, or holds it while the call stores progress faster than its rate. */
  async progress(body: ProgressBody): Promise<void> {
    const now = this.progressGate.offer(body)
    if (now !== undefined) await this.store([{ body: now, client: null }])
  }

  private async store(
    items: ReadonlyArray<{ body: TranscriptEventBody; client: ClientRef | null }>,
  ): Promise<TranscriptEvent[]> {
    const time = new Date().toISOString()
    const bounded = items.map(({ body, client }) =>
      boundEvent({ seq: ++this.head, time, client, ...body } as TranscriptEvent),
    )
    const events = bounded.map((entry) => entry.event)
    this.events.push(...events)
    await this.log.append(bounded.map((entry) => entry.json))
    // Appends resolve in order, so stored events are published in seq order.
    for (const event of events) {
      this.storedHead = event.seq
      for (const subscriber of this.subscribers.keys()) subscriber(event)
    }
    // Compact past the limit, but not again until the file has doubled since the last time: a
    // history that stays large after compaction must not be rewritten on every event.
    if (
      this.log.bytes > Math.max(this.hooks.compactAboveBytes, 2 * this.bytesAfterCompaction) &&
      this.compacting === undefined
    ) {
      void this.compact()
        .then(() => this.hooks.onCompacted(this))
        .catch((error: unknown) => this.hooks.onCompactionFailed(this, error))
    }
    return events
  }

  /** Stored events after `afterSeq`, oldest first. */
  eventsAfter(afterSeq: number, limit = Number.POSITIVE_INFINITY): TranscriptEvent[] {
    // A subscriber that starts at the head (every gateway call does) must not cost a scan of
    // the whole history.
    if (afterSeq >= this.storedHead) return []
    const out: TranscriptEvent[] = []
    for (const event of this.events) {
      if (event.seq > this.storedHead || out.length >= limit) break
      if (event.seq > afterSeq) out.push(event)
    }
    return out
  }

  get storedBytes(): number {
    return this.log.bytes
  }

  /** Rewrites the stored history in compacted form; returns the seq it was compacted through. */
  compact(): Promise<number> {
    this.compacting ??= (async () => {
      let through = 0
      try {
        await this.log.rewrite(() => {
          through = this.storedHead
          const compacted = compactEvents(this.events.filter((event) => event.seq <= through))
          this.events = [...compacted, ...this.events.filter((event) => event.seq > through)]
          return compacted
        })
        this.meta = { ...this.meta, compactedThrough: through }
        this.bytesAfterCompaction = this.log.bytes
        return through
      } finally {
        this.compacting = undefined
      }
    })()
    return this.compacting
  }

  /** True when resuming after `afterSeq` would miss events that compaction removed. */
  needsSnapshot(afterSeq: number): boolean {
    return afterSeq > 0 && afterSeq < (this.meta.compactedThrough ?? 0)
  }

  /** Replays what the subscriber missed after `afterSeq`, then delivers live events. */
  subscribe(
    afterSeq: number,
    subscriber: Subscriber,
    options: { canAnswer: boolean } = { canAnswer: false },
  ): () => void {
    for (const event of this.eventsAfter(afterSeq)) subscriber(event)
    this.subscribers.set(subscriber, options)
    return () => {
      this.subscribers.delete(subscriber)
      if (options.canAnswer && this.answererCount() === 0) this.hooks.onLastAnswererGone(this)
    }
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
      else if (isCallEnd(event)) open.delete(event.callId)
    }
    return [...open]
  }

  /** Questions that were asked and never resolved (the daemon stopped while they were open). */
  openInputs(): string[] {
    const open = new Set<string>()
    for (const event of this.events) {
      if (event.type === 'input.requested') open.add(event.inputId)
      else if (event.type === 'input.resolved') open.delete(event.inputId)
    }
    return [...open]
  }

  /** Closed: deleted, or the daemon is stopping; nothing more is recorded in it. */
  get closed(): boolean {
    return this.isClosed
  }

  close(): Promise<void> {
    this.isClosed = true
    this.subscribers.clear()
    return this.log.close()
  }
}
