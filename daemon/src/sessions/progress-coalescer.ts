// Bounds the progress a call stores: a burst of PROGRESS_BURST events, then one per
// PROGRESS_INTERVAL_MS. A progress that arrives too soon is held (a newer one replaces it) and
// stored when its turn comes, or just before the call's end, so the last one is always kept.

import type { TranscriptEventBody } from '../protocol/index.js'

export type ProgressBody = Extract<TranscriptEventBody, { type: 'call.progress' }>

/** Progress events a call stores as they come before the rate applies. */
export const PROGRESS_BURST = 20
/** After the burst, a call stores at most one progress event per this many milliseconds. */
export const PROGRESS_INTERVAL_MS = 100

interface CallGate {
  tokens: number
  refilledAt: number
  held: ProgressBody | undefined
  timer: NodeJS.Timeout | undefined
}

export class ProgressCoalescer {
  private readonly calls = new Map<string, CallGate>()

  /** `store` receives a held progress when its turn comes. */
  constructor(private readonly store: (body: ProgressBody) => void) {}

  /** The progress to store now, or undefined when it is held for later. */
  offer(body: ProgressBody): ProgressBody | undefined {
    let gate = this.calls.get(body.callId)
    if (gate === undefined) {
      gate = { tokens: PROGRESS_BURST, refilledAt: Date.now(), held: undefined, timer: undefined }
      this.calls.set(body.callId, gate)
    }
    this.refill(gate)
    if (gate.held === undefined && gate.tokens >= 1) {
      gate.tokens--
      return body
    }
    gate.held = body
    gate.timer ??= this.schedule(body.callId, gate)
    return undefined
  }

  /** Ends the call's gate; returns the progress it still held, to store before the call's end. */
  finish(callId: string): ProgressBody | undefined {
    const gate = this.calls.get(callId)
    if (gate === undefined) return undefined
    clearTimeout(gate.timer)
    this.calls.delete(callId)
    return gate.held
  }

  private refill(gate: CallGate): void {
    const now = Date.now()
    const earned = Math.floor((now - gate.refilledAt) / PROGRESS_INTERVAL_MS)
    if (earned > 0) {
      gate.tokens = Math.min(PROGRESS_BURST, gate.tokens + earned)
      gate.refilledAt += earned * PROGRESS_INTERVAL_MS
    }
  }

  private schedule(callId: string, gate: CallGate): NodeJS.Timeout {
    const wait = Math.max(0, gate.refilledAt + PROGRESS_INTERVAL_MS - Date.now())
    const timer = setTimeout(() => {
      gate.timer = undefined
      this.refill(gate)
      const held = gate.held
      if (held === undefined || this.calls.get(callId) !== gate) return
      if (gate.tokens < 1) {
        gate.timer = this.schedule(callId, gate)
        return
      }
      gate.tokens--
      gate.held = undefined
      this.store(held)
    }, wait)
    timer.unref()
    return timer
  }
}
