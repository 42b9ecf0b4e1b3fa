// MCP log messages into transcripts: a message that comes while exactly one call of its server
// is open on the wire (sent, not answered) goes to that call's session with its callId; any other
// goes to every session of the workspace, as server status does. A flood is bounded per server;
// what is dropped is counted and told.

import type { Ferry } from '../core/ferry.js'
import type { Log } from '../log.js'
import type { McpLogLine } from '../mcp/server-observer.js'
import type { TranscriptEventBody } from '../protocol/index.js'
import type { CallRunner } from './call-runner.js'
import type { Session } from './session.js'
import type { SessionManager } from './session-manager.js'

/** Messages of one server recorded at once before the rate applies. */
export const LOG_BURST = 100
/** Messages of one server recorded per second after a burst. */
export const LOG_PER_SECOND = 10
/** How soon after the first dropped message the count of dropped ones is told. */
const DROP_NOTICE_MS = 1000

interface Bucket {
  tokens: number
  at: number
  dropped: number
  timer: NodeJS.Timeout | undefined
}

export class ServerLogRouter {
  private readonly buckets = new Map<string, Bucket>()

  constructor(
    ferry: Ferry,
    private readonly manager: SessionManager,
    private readonly workspace: string,
    private readonly runner: CallRunner,
    private readonly log: Log,
  ) {
    ferry.onServerLog((server, line, openCalls) => this.route(server, line, openCalls))
  }

  private route(server: string, line: McpLogLine, openCalls: number): void {
    if (!this.take(server)) return
    const calls = openCalls === 1 ? this.runner.runningOn(server) : []
    const only = calls.length === 1 ? calls[0] : undefined
    const body: TranscriptEventBody = {
      type: 'server.log',
      server,
      level: line.level,
      logger: line.logger,
      data: line.data,
      callId: only?.callId ?? null,
    }
    if (only !== undefined) this.emit(only.session, body)
    else this.toWorkspace(body)
  }

  /** A token from the server's bucket, or the message is counted as dropped. */
  private take(server: string): boolean {
    const now = Date.now()
    let bucket = this.buckets.get(server)
    if (bucket === undefined) {
      bucket = { tokens: LOG_BURST, at: now, dropped: 0, timer: undefined }
      this.buckets.set(server, bucket)
    }
    bucket.tokens = Math.min(LOG_BURST, bucket.tokens + ((now - bucket.at) / 1000) * LOG_PER_SECOND)
    bucket.at = now
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      return true
    }
    bucket.dropped++
    if (bucket.timer === undefined) {
      const counted = bucket
      counted.timer = setTimeout(() => this.tellDropped(server, counted), DROP_NOTICE_MS)
      counted.timer.unref()
    }
    return false
  }

  private tellDropped(server: string, bucket: Bucket): void {
    const dropped = bucket.dropped
    bucket.dropped = 0
    bucket.timer = undefined
    if (dropped === 0) return
    this.log({ kind: 'server.log_dropped', server, dropped })
    this.toWorkspace({
      type: 'notice',
      level: 'warning',
      message: `server "${server}" sent ${dropped} log message${dropped === 1 ? '' : 's'} more than transcripts keep (${LOG_BURST} at once, then ${LOG_PER_SECOND} a second); \`ferry logs ${server}\` shows the last 1,000`,
    })
  }

  private toWorkspace(body: TranscriptEventBody): void {
    for (const session of this.manager.all()) {
      if (session.meta.workspace === this.workspace) this.emit(session, body)
    }
  }

  private emit(session: Session, body: TranscriptEventBody): void {
    session.emit(body, null).catch((failure: unknown) => {
      this.log({ kind: 'session.write_failed', session: session.id, error: String(failure) })
    })
  }
}
