// A resuming client of the daemon's WebSocket stream: finds the daemon through the runtime file,
// subscribes to a session after the last seq it has seen, hands each new event on exactly once,
// and reconnects (with the daemon's new address and token after a restart) until stopped.

import WebSocket from 'ws'
import { readRuntimeFile } from '../daemon/runtime-file.js'
import {
  STREAM_AUTH_PREFIX,
  STREAM_PROTOCOL,
  TranscriptCursor,
  retryDelay,
  type ClientClaim,
  type StreamCommand,
  type StreamMessage,
  type TranscriptEvent,
} from '../protocol/index.js'

export interface StreamClientOptions {
  stateDir: string
  session: string | undefined
  client: ClientClaim
  readOnly: boolean
  onEvent: (event: TranscriptEvent, session: string) => void
  onStatus?: (status: string) => void
  /** The stream is attached to `session` (again, after a reconnect), whose last event is `headSeq`. */
  onAttached?: (session: string, headSeq: number) => void
  /** A refusal that retrying cannot fix, such as an unknown session. */
  onFatal?: (message: string) => void
  /** Every message from the daemon before it is handled (replies to commands, for instance). */
  onMessage?: (message: StreamMessage) => void
  /** The stream is down (lost, or no daemon yet); a reconnect is scheduled. */
  onDisconnect?: (why: string) => void
}

export class StreamClient {
  private readonly cursor = new TranscriptCursor()
  private ws: WebSocket | undefined
  private stopped = false
  private attempt = 0
  private retryTimer: NodeJS.Timeout | undefined
  private sessionId: string | undefined

  constructor(private readonly options: StreamClientOptions) {
    this.sessionId = options.session
  }

  start(): void {
    void this.connect()
  }

  stop(): void {
    this.stopped = true
    clearTimeout(this.retryTimer)
    this.ws?.close(1000, 'detached')
  }

  /** False (and nothing sent) while the stream is not open. */
  send(command: StreamCommand): boolean {
    if (this.ws?.readyState !== WebSocket.OPEN) return false
    this.ws.send(JSON.stringify(command))
    return true
  }

  private async connect(): Promise<void> {
    if (this.stopped) return
    const info = await readRuntimeFile(this.options.stateDir)
    if (this.stopped) return
    if (info === undefined) return this.retry('waiting for the daemon')
    const url = new URL('api/stream', info.url)
    url.protocol = 'ws:'
    const ws = new WebSocket(url, [STREAM_PROTOCOL, `${STREAM_AUTH_PREFIX}${info.token}`])
    this.ws = ws
    ws.on('open', () => {
      this.attempt = 0
      this.send({ type: 'hello', client: this.options.client, readOnly: this.options.readOnly })
      this.send({
        type: 'subscribe',
        ...(this.sessionId === undefined ? {} : { session: this.sessionId }),
        afterSeq: this.cursor.afterSeq,
      })
    })
    ws.on('message', (data) => this.onMessage(JSON.parse(data.toString()) as StreamMessage))
    ws.on('error', () => {})
    ws.on('close', (code, reason) => {
      if (this.stopped) return
      this.retry(`disconnected (${code}${reason.length > 0 ? ` ${reason.toString()}` : ''})`)
    })
  }

  private onMessage(message: StreamMessage): void {
    this.options.onMessage?.(message)
    if (message.type === 'subscribed') {
      this.sessionId = message.session
      this.options.onAttached?.(message.session, message.headSeq)
    } else if (message.type === 'snapshot') {
      this.options.onStatus?.(message.reason)
      // A terminal cannot take back what it printed: it adds what the snapshot has beyond it.
      for (const event of this.cursor.snapshot(message.events)) {
        this.options.onEvent(event, message.session)
      }
    } else if (message.type === 'event') {
      // Replays after a reconnect may overlap what was already shown: each seq is shown once.
      if (this.cursor.accept(message.event)) this.options.onEvent(message.event, message.session)
    } else if (message.type === 'error' || (message.type === 'reply' && !message.ok)) {
      if (message.type === 'error' && message.error.code === 'not_found' && this.options.onFatal) {
        this.options.onFatal(message.error.message)
      } else {
        this.options.onStatus?.(`error: ${message.error.message}`)
      }
    }
  }

  private retry(why: string): void {
    if (this.stopped) return
    this.options.onStatus?.(`${why}; reconnecting`)
    this.options.onDisconnect?.(why)
    this.attempt += 1
    this.retryTimer = setTimeout(() => void this.connect(), retryDelay(this.attempt))
  }
}
