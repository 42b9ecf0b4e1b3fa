// The sign-ins a person started and whose browser has not come back yet, by `state`: each is taken
// once, within its lifetime, and only by the callback that carries its state. Whoever waits for a
// server's sign-in (`ferry login`, the WebShell) is told how it ended, also when the browser was
// quicker than the wait. The clock is injected.

import type { LoginOutcome } from '../../protocol/index.js'

/** How long a started sign-in waits for the browser to come back. */
export const SIGN_IN_LIFETIME_MS = 10 * 60_000

export interface PendingSignIn {
  server: string
  verifier: string
  expiresAt: number
}

type Progress =
  | { phase: 'waiting'; state: string; expiresAt: number }
  | { phase: 'finishing' }
  | { phase: 'ended'; outcome: LoginOutcome }

export type WaitResult = LoginOutcome | 'expired' | 'aborted' | 'pending' | 'none'

export class PendingSignIns {
  private readonly byState = new Map<string, PendingSignIn>()
  /** Each server's latest sign-in, from its start until a new one starts. */
  private readonly progress = new Map<string, Progress>()
  private readonly waiters = new Map<string, Set<(outcome: LoginOutcome) => void>>()

  constructor(private readonly now: () => number = Date.now) {}

  /** Records a started sign-in; an earlier one of the same server is replaced. */
  add(state: string, server: string, verifier: string): PendingSignIn {
    this.dropServer(server)
    const pending = { server, verifier, expiresAt: this.now() + SIGN_IN_LIFETIME_MS }
    this.byState.set(state, pending)
    this.progress.set(server, { phase: 'waiting', state, expiresAt: pending.expiresAt })
    return pending
  }

  /** The sign-in this state names, removed; undefined when none is pending or it expired. */
  take(state: string): PendingSignIn | undefined {
    const pending = this.byState.get(state)
    if (pending === undefined) return undefined
    this.byState.delete(state)
    if (pending.expiresAt <= this.now()) return undefined
    this.progress.set(pending.server, { phase: 'finishing' })
    return pending
  }

  /**
   * How the server's latest sign-in ended: at once when it has, else when it does, with `expired`
   * when its lifetime passes, `pending` after `maxWaitMs` (so no request is held open for ten
   * minutes), or `none` when no sign-in was started.
   */
  wait(server: string, signal: AbortSignal, maxWaitMs: number): Promise<WaitResult> {
    const progress = this.progress.get(server)
    if (progress === undefined) return Promise.resolve('none')
    if (progress.phase === 'ended') return Promise.resolve(progress.outcome)
    const left = progress.phase === 'waiting' ? progress.expiresAt - this.now() : maxWaitMs + 1
    if (left <= 0) return Promise.resolve('expired')
    return new Promise((resolve) => {
      const set = this.waiters.get(server) ?? new Set()
      this.waiters.set(server, set)
      const done = (result: WaitResult) => {
        clearTimeout(timer)
        set.delete(settle)
        signal.removeEventListener('abort', onAbort)
        resolve(result)
      }
      const settle = (outcome: LoginOutcome) => done(outcome)
      const onAbort = () => done('aborted')
      const timer =
        left > maxWaitMs
          ? setTimeout(() => done('pending'), maxWaitMs)
          : setTimeout(() => done('expired'), left)
      timer.unref()
      set.add(settle)
      signal.addEventListener('abort', onAbort, { once: true })
    })
  }

  /** Tells everyone waiting for this server's sign-in how it ended. */
  settle(outcome: LoginOutcome): void {
    this.progress.set(outcome.server, { phase: 'ended', outcome })
    for (const settle of [...(this.waiters.get(outcome.server) ?? [])]) settle(outcome)
  }

  /** Forgets the server's pending sign-ins (logout, removal). */
  dropServer(server: string): void {
    for (const [state, pending] of this.byState) {
      if (pending.server === server) this.byState.delete(state)
    }
    this.progress.delete(server)
  }
}
