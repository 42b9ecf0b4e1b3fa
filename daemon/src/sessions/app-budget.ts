// How much one MCP App may ask: every request of the App of one call (over all the tabs that show
// it) takes a token from that App's bucket, so no App can flood a transcript or the daemon. What
// is refused is counted and told once in the App's session.

import { ErrorCode, FerryError } from '../errors.js'
import type { Log } from '../log.js'
import type { Session } from './session.js'

/** Requests of one App taken at once before the rate applies. */
export const APP_REQUEST_BURST = 100
/** Requests of one App taken per second after a burst. */
export const APP_REQUESTS_PER_SECOND = 10
/** How soon after the first refused request the count of refused ones is told. */
const REFUSED_NOTICE_MS = 1000
/** Past this many buckets, the full ones (of Apps idle long enough) are forgotten. */
const KEPT_BUCKETS = 1000

interface Bucket {
  session: Session
  callId: string
  tokens: number
  at: number
  refused: number
  timer: NodeJS.Timeout | undefined
}

const LIMITS = `${APP_REQUEST_BURST} at once, then ${APP_REQUESTS_PER_SECOND} a second`

export class AppBudget {
  private readonly buckets = new Map<string, Bucket>()

  constructor(private readonly log: Log) {}

  /** Takes one request of the App of `callId`, or refuses it with `too_many_requests`. */
  take(session: Session, callId: string): void {
    const key = `${session.id}/${callId}`
    const now = Date.now()
    let bucket = this.buckets.get(key)
    if (bucket === undefined) {
      this.forgetIdle(now)
      bucket = { session, callId, tokens: APP_REQUEST_BURST, at: now, refused: 0, timer: undefined }
      this.buckets.set(key, bucket)
    }
    this.refill(bucket, now)
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      return
    }
    bucket.refused++
    if (bucket.timer === undefined) {
      const counted = bucket
      counted.timer = setTimeout(() => this.tellRefused(counted), REFUSED_NOTICE_MS)
      counted.timer.unref()
    }
    throw new FerryError(
      ErrorCode.TooManyRequests,
      `this App asked more than Ferry takes from one App (${LIMITS}); try again in a moment`,
    )
  }

  private refill(bucket: Bucket, now: number): void {
    const earned = ((now - bucket.at) / 1000) * APP_REQUESTS_PER_SECOND
    bucket.tokens = Math.min(APP_REQUEST_BURST, bucket.tokens + earned)
    bucket.at = now
  }

  private forgetIdle(now: number): void {
    if (this.buckets.size < KEPT_BUCKETS) return
    for (const [key, bucket] of this.buckets) {
      this.refill(bucket, now)
      if (bucket.tokens >= APP_REQUEST_BURST && bucket.timer === undefined) this.buckets.delete(key)
    }
  }

  private tellRefused(bucket: Bucket): void {
    const refused = bucket.refused
    bucket.refused = 0
    bucket.timer = undefined
    if (refused === 0) return
    const { session, callId } = bucket
    this.log({ kind: 'app.requests_refused', session: session.id, callId, refused })
    session
      .emit(
        {
          type: 'notice',
          level: 'warning',
          message: `the App of call ${callId} made ${refused} request${refused === 1 ? '' : 's'} more than Ferry takes from one App (${LIMITS}); ${refused === 1 ? 'it was' : 'they were'} refused`,
        },
        null,
      )
      .catch((failure: unknown) => {
        this.log({ kind: 'session.write_failed', session: session.id, error: String(failure) })
      })
  }
}
