// A tool call's own timeout, which stands still while a person answers the server's question:
// the idle limit (reset by progress and by each answer) and the total limit both count only the
// time the server is working. The SDK's timer cannot be paused, so calls run under this one.

import { ErrorCode, FerryError } from '../errors.js'

/** What ran out: the idle limit (no progress for `timeout` ms) or the total one. */
export type Expiry = 'idle' | 'total'

export class CallTimer {
  private timer: NodeJS.Timeout | undefined
  /** Open questions; the clock runs only while there are none. */
  private held = 0
  /** Working time used before the current stretch, toward the total limit. */
  private used = 0
  /** When the current stretch of working time began. */
  private since = Date.now()
  private stopped = false

  constructor(
    private readonly idleMs: number,
    private readonly totalMs: number,
    private readonly onExpire: (expiry: Expiry) => void,
  ) {
    this.arm()
  }

  /** The server reported progress: the idle limit starts again. */
  progress(): void {
    if (this.held > 0 || this.stopped) return
    this.account()
    this.arm()
  }

  /** A question opened: the clock stops until every open question is answered. */
  hold(): void {
    if (this.held++ > 0 || this.stopped) return
    clearTimeout(this.timer)
    this.account()
  }

  /** A question closed: with none left open, the idle limit starts afresh. */
  release(): void {
    if (this.held === 0 || --this.held > 0 || this.stopped) return
    this.since = Date.now()
    this.arm()
  }

  stop(): void {
    this.stopped = true
    clearTimeout(this.timer)
  }

  private account(): void {
    const now = Date.now()
    this.used += now - this.since
    this.since = now
  }

  private arm(): void {
    clearTimeout(this.timer)
    const left = Math.max(0, this.totalMs - this.used)
    const expiry: Expiry = left < this.idleMs ? 'total' : 'idle'
    this.timer = setTimeout(
      () => {
        this.stopped = true
        this.onExpire(expiry)
      },
      Math.min(this.idleMs, left),
    )
  }
}

/** A call's timer and the signal that ends the call: the caller's cancel, or the timer running out. */
export class CallClock {
  /** What the SDK is given instead: setTimeout's largest delay, so its own timer never fires. */
  static readonly SDK_TIMEOUT_MS = 2_147_483_647

  readonly timer: CallTimer
  readonly signal: AbortSignal
  private readonly controller = new AbortController()
  private expiry: Expiry | undefined

  constructor(
    private readonly idleMs: number,
    private readonly totalMs: number,
    caller: AbortSignal | undefined,
  ) {
    this.timer = new CallTimer(idleMs, totalMs, (expiry) => {
      this.expiry = expiry
      this.controller.abort()
    })
    this.signal =
      caller === undefined
        ? this.controller.signal
        : AbortSignal.any([caller, this.controller.signal])
  }

  /** The timeout error, once the timer ran out. */
  expired(server: string, tool: string): FerryError | undefined {
    if (this.expiry === undefined) return undefined
    return new FerryError(
      ErrorCode.ToolTimeout,
      this.expiry === 'total'
        ? `${tool} on "${server}" ran past its total limit of ${this.totalMs} ms`
        : `${tool} on "${server}" timed out after ${this.idleMs} ms without progress`,
    )
  }

  stop(): void {
    this.timer.stop()
  }
}
