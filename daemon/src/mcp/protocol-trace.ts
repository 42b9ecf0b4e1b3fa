// A server's protocol trace: the last 1,000 JSON-RPC messages each way, in memory, with time,
// size and request/response pairing. Only messages are recorded (never HTTP headers), long
// strings are cut, and old bodies give way to new ones past a byte budget.

import type { JSONRPCMessage } from '@modelcontextprotocol/client'
import type { TraceEntry } from '../protocol/index.js'

/** Messages kept per direction. */
export const TRACE_PER_DIRECTION = 1000
/** A string longer than this (in characters) is kept cut to this length, with a marker. */
export const TRACE_STRING_CHARS = 2048
/** A message whose cut form is still larger is kept as its envelope (id, method) only. */
export const TRACE_MESSAGE_BYTES = 64 * 1024
/** Bodies kept across both directions; past it the oldest entries keep their envelope only. */
export const TRACE_BODY_BUDGET_BYTES = 8 * 1024 * 1024
/** Requests awaiting their answer, per transport; the oldest are forgotten past this. */
const MAX_PENDING = 10_000
const MAX_DEPTH = 64
export const CUT_KEY = 'ferry/cut'

type Direction = TraceEntry['direction']

interface Kept {
  entry: TraceEntry
  /** Bytes the entry's body holds, 0 once evicted or reduced to its envelope. */
  bodyBytes: number
}

interface Pending {
  at: number
  method: string
}

export type TraceListener = (entry: TraceEntry) => void

export class ProtocolTrace {
  private seq = 0
  private readonly rings: Record<Direction, Kept[]> = { out: [], in: [] }
  /** Entries that still hold a body, oldest first: the ones reduced when over the budget. */
  private bodies: Kept[] = []
  private bodyHead = 0
  private bodyBytes = 0
  private readonly listeners = new Set<TraceListener>()

  constructor(
    private readonly perDirection = TRACE_PER_DIRECTION,
    private readonly budgetBytes = TRACE_BODY_BUDGET_BYTES,
  ) {}

  /** Pairing state for one transport: ids restart with each connection. */
  tap(): TraceTap {
    return new TraceTap(this)
  }

  /** The kept entries with `seq` greater than `after`, oldest first. */
  after(after = 0): TraceEntry[] {
    const out = this.rings.out
    const inn = this.rings.in
    const merged: TraceEntry[] = []
    let i = 0
    let j = 0
    while (i < out.length || j < inn.length) {
      const a = out[i]
      const b = inn[j]
      const next = b === undefined || (a !== undefined && a.entry.seq < b.entry.seq) ? a : b
      if (next === a) i++
      else j++
      if (next !== undefined && next.entry.seq > after) merged.push(next.entry)
    }
    return merged
  }

  /** The last seq given out; 0 before any message. */
  get headSeq(): number {
    return this.seq
  }

  subscribe(listener: TraceListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Records one message; `paired` comes from the tap that saw it. */
  record(
    direction: Direction,
    message: JSONRPCMessage,
    paired: { method: string | null; latencyMs: number | null },
  ): void {
    const json = safeJson(message)
    const bytes = Buffer.byteLength(json)
    const { body, bodyBytes } = keptBody(message, bytes)
    const entry: TraceEntry = {
      seq: ++this.seq,
      time: new Date().toISOString(),
      direction,
      kind: kindOf(message),
      method: paired.method,
      id: 'id' in message && message.id !== undefined ? message.id : null,
      bytes,
      latencyMs: paired.latencyMs,
      message: body,
    }
    const kept: Kept = { entry, bodyBytes }
    const ring = this.rings[direction]
    ring.push(kept)
    if (ring.length > this.perDirection) {
      for (const gone of ring.splice(0, ring.length - this.perDirection)) this.drop(gone)
    }
    this.bodies.push(kept)
    this.bodyBytes += bodyBytes
    this.enforceBudget()
    for (const listener of this.listeners) listener(entry)
  }

  private drop(kept: Kept): void {
    this.bodyBytes -= kept.bodyBytes
    kept.bodyBytes = 0
  }

  private enforceBudget(): void {
    while (this.bodyBytes > this.budgetBytes && this.bodyHead < this.bodies.length) {
      const oldest = this.bodies[this.bodyHead++]
      if (oldest === undefined || oldest.bodyBytes === 0) continue
      oldest.entry.message = envelopeOf(oldest.entry, 'older bodies give way to newer ones')
      this.drop(oldest)
    }
    // Only the entries in the rings hold a body; the others (gone from their ring, or reduced)
    // leave the queue once they could outnumber those, so it stays bounded however many
    // messages pass.
    if (this.bodies.length > 4 * this.perDirection + 4096) {
      this.bodies = this.bodies.slice(this.bodyHead).filter((kept) => kept.bodyBytes > 0)
      this.bodyHead = 0
    }
  }

  /** Entries the trace holds in memory: its rings' and those still queued for the budget. */
  get held(): number {
    return this.bodies.length
  }
}

/** Pairs requests with their answers on one transport and hands each message to the trace. */
export class TraceTap {
  /** Requests Ferry sent, by id. */
  private readonly sent = new Map<string | number, Pending>()
  /** Requests the server sent (elicitation, roots, ping), by id. */
  private readonly received = new Map<string | number, Pending>()

  constructor(private readonly trace: ProtocolTrace) {}

  outgoing(message: JSONRPCMessage): void {
    this.trace.record('out', message, this.pair(message, this.sent, this.received))
  }

  incoming(message: JSONRPCMessage): void {
    this.trace.record('in', message, this.pair(message, this.received, this.sent))
  }

  /** A request joins `mine`; an answer is matched against the other side's requests. */
  private pair(
    message: JSONRPCMessage,
    mine: Map<string | number, Pending>,
    theirs: Map<string | number, Pending>,
  ): { method: string | null; latencyMs: number | null } {
    const id = 'id' in message ? message.id : undefined
    if ('method' in message) {
      if (id !== undefined) {
        mine.set(id, { at: performance.now(), method: message.method })
        if (mine.size > MAX_PENDING) mine.delete(mine.keys().next().value as string | number)
      }
      return { method: message.method, latencyMs: null }
    }
    const request = id === undefined ? undefined : theirs.get(id)
    if (request === undefined || id === undefined) return { method: null, latencyMs: null }
    theirs.delete(id)
    return {
      method: request.method,
      latencyMs: Math.round((performance.now() - request.at) * 10) / 10,
    }
  }
}

function kindOf(message: JSONRPCMessage): TraceEntry['kind'] {
  if ('method' in message)
    return 'id' in message && message.id !== undefined ? 'request' : 'notification'
  return 'error' in message ? 'error' : 'response'
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? ''
  } catch {
    return ''
  }
}

/** The message as kept: strings cut, and only its envelope when still too large. */
function keptBody(message: JSONRPCMessage, bytes: number): { body: unknown; bodyBytes: number } {
  const cut = cutStrings(message, 0)
  const cutBytes = cut === message ? bytes : Buffer.byteLength(safeJson(cut))
  if (cutBytes <= TRACE_MESSAGE_BYTES) return { body: cut, bodyBytes: cutBytes }
  const envelope = envelopeOf(
    { message, bytes } as Pick<TraceEntry, 'message' | 'bytes'>,
    `over the ${TRACE_MESSAGE_BYTES / 1024} KB a trace entry keeps`,
  )
  return { body: envelope, bodyBytes: Buffer.byteLength(safeJson(envelope)) }
}

/** `jsonrpc`, `id`, `method` and an error's code and message, with why the rest is gone. */
function envelopeOf(entry: Pick<TraceEntry, 'message' | 'bytes'>, why: string): unknown {
  const source = (entry.message ?? {}) as Record<string, unknown>
  const envelope: Record<string, unknown> = { jsonrpc: source.jsonrpc ?? '2.0' }
  if (source.id !== undefined) envelope.id = source.id
  if (typeof source.method === 'string') envelope.method = source.method
  const error = source.error as { code?: unknown; message?: unknown } | undefined
  if (error !== undefined && typeof error === 'object') {
    envelope.error = { code: error.code, message: cutStrings(error.message, 0) }
  }
  envelope[CUT_KEY] = `${entry.bytes} bytes, body not kept: ${why}`
  return envelope
}

/** A copy with every string over the limit cut and marked; `value` itself when nothing is cut. */
export function cutStrings(value: unknown, depth: number): unknown {
  if (typeof value === 'string') {
    if (value.length <= TRACE_STRING_CHARS) return value
    const rest = value.length - TRACE_STRING_CHARS
    return `${value.slice(0, TRACE_STRING_CHARS)}…[${CUT_KEY}: ${rest} more characters]`
  }
  if (typeof value !== 'object' || value === null) return value
  if (depth >= MAX_DEPTH) return `[${CUT_KEY}: nested deeper than ${MAX_DEPTH} levels]`
  let changed = false
  if (Array.isArray(value)) {
    const copy = value.map((item: unknown) => {
      const next = cutStrings(item, depth + 1)
      if (next !== item) changed = true
      return next
    })
    return changed ? copy : value
  }
  const copy: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    const next = cutStrings(item, depth + 1)
    if (next !== item) changed = true
    copy[key] = next
  }
  return changed ? copy : value
}
