// One attached WebSocket client: its identity, its subscription to a session (replay from a seq,
// then live), its commands, and the bound on what it may leave unread.

import { randomBytes } from 'node:crypto'
import { setMaxListeners } from 'node:events'
import type { Socket } from 'node:net'
import type { WebSocket } from 'ws'
import { ErrorCode, FerryError, toWireError, type ErrorContext } from '../errors.js'
import type { Log } from '../log.js'
import {
  CLOSE_TOO_SLOW,
  appCommandRef,
  appCommandSchema,
  streamCommandSchema,
  type ClientRef,
  type StreamCommand,
  type StreamMessage,
  type TranscriptEvent,
} from '../protocol/index.js'
import type { AppHost, CatalogApi, SessionHandle, SessionsApi } from '../service/ferry-service.js'
import { ServerFollows } from './server-follows.js'

/** A client that leaves more than this unread is dropped; it can resume from its last seq. */
export const MAX_UNSENT_BYTES = 8 * 1024 * 1024

/** Each event is serialised and encoded once, however many clients it goes to. */
const frames = new WeakMap<TranscriptEvent, Buffer>()

function eventFrame(session: string, event: TranscriptEvent): Buffer {
  let frame = frames.get(event)
  if (frame === undefined) {
    frame = Buffer.from(JSON.stringify({ type: 'event', session, event } satisfies StreamMessage))
    frames.set(event, frame)
  }
  return frame
}

export class StreamConnection {
  private client: ClientRef
  private readOnly = false
  private session: SessionHandle | undefined
  private unsubscribe: (() => void) | undefined
  private alive = true
  /** Aborts when the client goes away, which cancels every call it started that still runs. */
  private readonly gone = new AbortController()
  private readonly follows: ServerFollows
  /** The MCP Apps this client shows; they end when it goes. */
  private readonly apps: AppHost
  /** Whether the socket holds this turn's frames, to write them at once when the turn ends. */
  private corked = false

  constructor(
    private readonly ws: WebSocket,
    private readonly sessions: SessionsApi,
    catalog: CatalogApi,
    private readonly log: Log,
    /** The connection's socket, corked while one turn's frames are sent. */
    private readonly socket: Pick<Socket, 'cork' | 'uncork'>,
  ) {
    this.client = { id: randomBytes(4).toString('hex'), kind: 'api', label: 'WebSocket client' }
    this.follows = new ServerFollows(catalog, (message) => this.send(message))
    this.apps = sessions.appHost()
    setMaxListeners(0, this.gone.signal)
    ws.on('message', (data, isBinary) => void this.onMessage(isBinary ? '' : data.toString()))
    ws.on('pong', () => (this.alive = true))
    ws.on('close', () => {
      this.unsubscribe?.()
      this.follows.close()
      this.apps.closeAll()
      this.gone.abort()
    })
    ws.on('error', () => {})
    this.send({ type: 'welcome', clientId: this.client.id })
  }

  heartbeat(): void {
    if (!this.alive) {
      this.ws.terminate()
      return
    }
    this.alive = false
    this.ws.ping()
  }

  close(code: number, reason: string): void {
    this.unsubscribe?.()
    this.ws.close(code, reason)
  }

  private send(message: StreamMessage): void {
    this.sendFrame(JSON.stringify(message))
  }

  private sendFrame(frame: string | Buffer): void {
    if (this.ws.readyState !== this.ws.OPEN) return
    if (this.ws.bufferedAmount > MAX_UNSENT_BYTES) {
      this.log({ kind: 'stream.dropped_slow_client', client: this.client.id })
      this.close(CLOSE_TOO_SLOW, 'too slow: reconnect and resume from your last seq')
      return
    }
    // The frames sent in one turn (a stored batch of events) leave in one write, not one each.
    if (!this.corked) {
      this.corked = true
      this.socket.cork()
      queueMicrotask(() => {
        this.corked = false
        this.socket.uncork()
      })
    }
    this.ws.send(frame, { binary: false })
  }

  private fail(ref: string | undefined, error: unknown, context: ErrorContext): void {
    const body = toWireError(error, this.log, { session: this.session?.id, ...context })
    this.send(
      ref === undefined
        ? { type: 'error', error: body }
        : { type: 'reply', ref, ok: false, error: body },
    )
  }

  private async onMessage(text: string): Promise<void> {
    let parsed: StreamCommand
    // An App command that does not fit is answered by its ref, so the tab can answer its App.
    let appRef: string | undefined
    try {
      const raw: unknown = JSON.parse(text)
      appRef = appCommandRef(raw)
      const result = (appCommandSchema(raw) ?? streamCommandSchema).safeParse(raw)
      if (!result.success) {
        const issue = result.error.issues[0]
        throw new FerryError(
          ErrorCode.BadRequest,
          `${issue?.path.join('.') || 'message'}: ${issue?.message ?? 'invalid'}`,
        )
      }
      parsed = result.data
    } catch (error) {
      const known =
        error instanceof FerryError
          ? error
          : new FerryError(ErrorCode.BadRequest, 'messages must be JSON objects')
      return this.fail(appRef, known, { where: 'stream message' })
    }
    const ref = 'ref' in parsed ? parsed.ref : undefined
    try {
      await this.dispatch(parsed)
    } catch (error) {
      const callId = 'callId' in parsed ? parsed.callId : 'id' in parsed ? parsed.id : undefined
      this.fail(ref, error, { where: `stream ${parsed.type}`, callId })
    }
  }

  private async dispatch(message: StreamCommand): Promise<void> {
    switch (message.type) {
      case 'hello':
        this.client = { ...this.client, kind: message.client.kind, label: message.client.label }
        this.readOnly = message.readOnly === true
        return
      case 'subscribe': {
        const session = await this.sessions.resolve(message.session)
        this.unsubscribe?.()
        this.session = session
        let afterSeq = message.afterSeq ?? 0
        this.send({
          type: 'subscribed',
          session: session.id,
          headSeq: session.info().headSeq,
          afterSeq,
        })
        if (session.needsSnapshot(afterSeq)) {
          const events = session.eventsAfter(0)
          this.send({
            type: 'snapshot',
            session: session.id,
            reason: `events up to seq ${session.info().compactedThrough} were compacted; this is the compacted history`,
            events,
          })
          afterSeq = events.at(-1)?.seq ?? afterSeq
        }
        this.unsubscribe = session.subscribe(
          afterSeq,
          (event) => this.sendFrame(eventFrame(session.id, event)),
          { canAnswer: !this.readOnly },
        )
        return
      }
      case 'call': {
        this.writable()
        const { callId } = await this.sessions.call({
          session: this.session?.id,
          tool: message.tool,
          arguments: message.arguments ?? {},
          client: this.client,
          timeoutMs: message.timeoutMs,
          callId: message.id,
          signal: this.gone.signal,
        })
        this.send({ type: 'reply', ref: message.ref, ok: true, callId })
        return
      }
      case 'cancel':
        this.writable()
        this.sessions.cancel(message.callId, this.client)
        this.send({ type: 'reply', ref: message.ref, ok: true, callId: message.callId })
        return
      case 'answer':
        this.writable()
        await this.sessions.answer(message.callId, message.outcome, this.client)
        this.send({ type: 'reply', ref: message.ref, ok: true, callId: message.callId })
        return
      case 'follow_server':
        this.follows.follow(message)
        this.send({ type: 'reply', ref: message.ref, ok: true })
        return
      case 'unfollow_server':
        this.follows.unfollow(message.server)
        this.send({ type: 'reply', ref: message.ref, ok: true })
        return
      case 'answer_input': {
        this.writable()
        const { action, content } = message
        const answer = content === undefined ? { action } : { action, content }
        await this.sessions.answerInput(message.inputId, answer, this.client)
        this.send({ type: 'reply', ref: message.ref, ok: true })
        return
      }
      case 'app_open': {
        this.writable()
        const { appId } = await this.apps.open(this.session?.id, message.callId)
        this.send({ type: 'reply', ref: message.ref, ok: true, appId })
        return
      }
      case 'app_close':
        this.apps.close(message.appId)
        this.send({ type: 'reply', ref: message.ref, ok: true })
        return
      case 'app_request': {
        const answer = await this.apps.request(message.appId, message, this.client)
        this.send({ type: 'reply', ref: message.ref, ok: true, ...answer })
        return
      }
    }
  }

  private writable(): void {
    if (this.readOnly) {
      throw new FerryError(
        ErrorCode.Forbidden,
        'this client attached read-only; it cannot call or answer',
      )
    }
  }
}
