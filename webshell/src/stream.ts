// The tab's connection to the daemon's WebSocket stream: authenticates with the subprotocol
// token, follows one session from the last seq it has shown, hands each event on exactly once,
// and reconnects with backoff after a network drop or a daemon restart. History is fetched in
// pages over REST before subscribing: a browser takes a WebSocket message at a time, and ten
// thousand of them cost seconds where one response costs milliseconds.

import type {
  AppRequest,
  ConfirmationOutcome,
  EventsPage,
  InputAnswer,
  StreamCommand,
  StreamMessage,
  TranscriptEvent,
} from '../../daemon/src/protocol/index.js'
// The stream's own file, not the index: values from the index would bring its zod schemas along.
import type { ErrorCode } from '../../daemon/src/protocol/errors.js'
import { STREAM_AUTH_PREFIX, STREAM_PROTOCOL } from '../../daemon/src/protocol/stream.js'
import { retryDelay, TranscriptCursor } from '../../daemon/src/protocol/transcript-cursor.js'
import { ApiError, api } from './api.js'
import { tabLabel } from './tab-label.js'

/** A live feed of one server, outside any session: its protocol trace or its logs. */
export type ServerFeed = 'trace' | 'logs'
export type ServerFeedMessage = Extract<StreamMessage, { type: 'trace' | 'server_log' }>

export type Connection =
  | { state: 'connecting' }
  | { state: 'live' }
  | { state: 'reconnecting'; attempt: number; why: string }
  | { state: 'refused'; message: string }

export interface StreamHandlers {
  /** The subscription is (re)established; `reset` means the shown transcript must be dropped. */
  onSubscribed(session: string, reset: boolean): void
  /** New events in seq order, each seq once; several arrive together during a replay. */
  onEvents(events: TranscriptEvent[]): void
  /** Compacted history that replaces whatever was shown. */
  onSnapshot(events: TranscriptEvent[], reason: string): void
  onConnection(connection: Connection): void
  /** A session that does not exist, or a daemon that refuses the token: retrying will not help. */
  onFatal(message: string): void
  /** A trace entry or log line of a server this tab follows. */
  onServerFeed(message: ServerFeedMessage): void
}

type Answer = { callId?: string; appId?: string; result?: unknown }
type Reply =
  | ({ ok: true } & Answer)
  | { ok: false; error: { code: ClientErrorCode; message: string } }

const HISTORY_PAGE = 10_000

/** Said of the daemon, its servers and running calls while it cannot be reached. */
export const NOT_ANSWERING = 'Ferry is not answering'

const REFUSED =
  'Ferry no longer accepts this tab’s token (it was renewed). Run `ferry open` for a new link.'

/** What the Apps on screen need of the stream: their lifecycle and requests with the daemon. */
export type AppChannel = Pick<ShellStream, 'appOpen' | 'appClose' | 'appRequest' | 'socket'>

/** A code the daemon answered, or `offline`: the tab could not reach it. */
export type ClientErrorCode = ErrorCode | 'offline'

export class StreamError extends Error {
  constructor(
    readonly code: ClientErrorCode,
    message: string,
  ) {
    super(message)
  }
}

export class ShellStream {
  private ws: WebSocket | undefined
  /** Bumped on every new socket: what the daemon held for the previous one (an App) is gone. */
  private sockets = 0
  private readonly cursor = new TranscriptCursor()
  /** The session asked for; undefined means the workspace's default until the daemon names it. */
  private session: string | undefined
  private subscribed: string | undefined
  private stopped = false
  private attempt = 0
  private retryTimer: ReturnType<typeof setTimeout> | undefined
  private nextRef = 0
  private readonly pending = new Map<string, (reply: Reply) => void>()
  /** Servers whose feeds this tab follows: asked for again on every (re)connection. */
  private readonly followed = new Map<string, ServerFeed[]>()
  /** Events of one socket message burst, handed on together so a replay renders once. */
  private batch: TranscriptEvent[] = []
  private flushQueued = false

  constructor(
    private readonly token: string,
    session: string | undefined,
    private readonly handlers: StreamHandlers,
  ) {
    this.session = session
  }

  /** Connects, following `session` if given (else the one named at construction). */
  start(session?: string): void {
    if (session !== undefined) this.session = session
    void this.connect()
  }

  stop(): void {
    this.stopped = true
    clearTimeout(this.retryTimer)
    this.ws?.close(1000, 'tab closed')
  }

  /** Follows another session from its beginning, on the same socket (calls it started go on). */
  async switchTo(session: string): Promise<void> {
    this.session = session
    this.subscribed = undefined
    this.cursor.reset()
    this.batch = []
    try {
      await this.catchUp()
    } catch {
      // The subscription below replays whatever the pages did not bring.
    }
    if (this.session !== session) return
    this.send({ type: 'subscribe', session, afterSeq: this.cursor.afterSeq })
  }

  /** Resolves when the call ends; `id` lets the caller find it in the transcript meanwhile. */
  call(tool: string, args: Record<string, unknown>, id: string): Promise<string | undefined> {
    return this.command({ type: 'call', ref: '', tool, arguments: args, id })
  }

  cancel(callId: string): Promise<string | undefined> {
    return this.command({ type: 'cancel', ref: '', callId })
  }

  answer(callId: string, outcome: ConfirmationOutcome): Promise<string | undefined> {
    return this.command({ type: 'answer', ref: '', callId, outcome })
  }

  /** Answers an open `input.requested`; rejects with the daemon's reason (a field that does not fit). */
  answerInput(inputId: string, answer: InputAnswer): Promise<string | undefined> {
    return this.command({ type: 'answer_input', ref: '', inputId, ...answer })
  }

  /** Follows `feeds` of `server` (replacing what was followed of it) until `unfollow`. */
  follow(server: string, feeds: ServerFeed[]): Promise<string | undefined> {
    this.followed.set(server, feeds)
    return this.command({ type: 'follow_server', ref: '', server, feeds })
  }

  unfollow(server: string): Promise<string | undefined> {
    this.followed.delete(server)
    return this.command({ type: 'unfollow_server', ref: '', server })
  }

  /** The number of sockets opened so far; an App opened on an earlier one must open again. */
  get socket(): number {
    return this.sockets
  }

  /** Opens the App of `callId`; resolves with its `appId`. */
  async appOpen(callId: string): Promise<string> {
    const { appId } = await this.request({ type: 'app_open', ref: '', callId })
    if (appId === undefined)
      throw new StreamError('internal', 'Ferry opened the App without an id.')
    return appId
  }

  appClose(appId: string): Promise<unknown> {
    return this.request({ type: 'app_close', ref: '', appId })
  }

  /** Passes one request of a live App on; resolves with what goes back to the App. */
  async appRequest(appId: string, request: AppRequest): Promise<unknown> {
    return (await this.request({ type: 'app_request', ref: '', appId, ...request })).result
  }

  private async command(
    command: Extract<StreamCommand, { ref: string }>,
  ): Promise<string | undefined> {
    return (await this.request(command)).callId
  }

  /** Sends a command and resolves with its reply; rejects when the daemon refuses it. */
  private request(command: Extract<StreamCommand, { ref: string }>): Promise<Answer> {
    const ref = `r${++this.nextRef}`
    return new Promise((resolve, reject) => {
      if (!this.send({ ...command, ref } as StreamCommand)) {
        reject(new StreamError('offline', 'Not connected to Ferry; try again once reconnected.'))
        return
      }
      this.pending.set(ref, (reply) =>
        reply.ok ? resolve(reply) : reject(new StreamError(reply.error.code, reply.error.message)),
      )
    })
  }

  private send(command: StreamCommand): boolean {
    if (this.ws?.readyState !== WebSocket.OPEN) return false
    this.ws.send(JSON.stringify(command))
    return true
  }

  private async connect(): Promise<void> {
    if (this.stopped) return
    this.handlers.onConnection(
      this.attempt === 0
        ? { state: 'connecting' }
        : { state: 'reconnecting', attempt: this.attempt, why: 'connecting' },
    )
    try {
      await this.catchUp()
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return this.fatal(REFUSED)
      if (error instanceof ApiError && error.status === 404) return this.fatal(error.message)
      return this.retry(NOT_ANSWERING)
    }
    if (this.stopped) return
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:'
    const ws = new WebSocket(`${scheme}//${location.host}/api/stream`, [
      STREAM_PROTOCOL,
      `${STREAM_AUTH_PREFIX}${this.token}`,
    ])
    this.ws = ws
    ws.addEventListener('open', () => {
      this.sockets += 1
      this.send({
        type: 'hello',
        client: { kind: 'webshell', label: tabLabel() },
      })
      this.send({
        type: 'subscribe',
        ...(this.session === undefined ? {} : { session: this.session }),
        afterSeq: this.cursor.afterSeq,
      })
      for (const [server, feeds] of this.followed) {
        this.send({ type: 'follow_server', ref: `r${++this.nextRef}`, server, feeds })
      }
    })
    ws.addEventListener('message', (message: MessageEvent<string>) => {
      if (this.ws !== ws) return
      this.onMessage(JSON.parse(message.data) as StreamMessage)
    })
    ws.addEventListener('close', (event) => {
      if (this.ws !== ws || this.stopped) return
      this.flush()
      for (const settle of this.pending.values()) {
        settle({
          ok: false,
          error: { code: 'offline', message: 'The connection to Ferry was lost.' },
        })
      }
      this.pending.clear()
      this.retry(
        event.code === 1000 || event.code === 1006
          ? 'connection lost'
          : event.reason || `closed (${event.code})`,
      )
    })
  }

  /** Reads what was stored after the last seq shown, a page at a time, before subscribing. */
  private async catchUp(): Promise<void> {
    const session = this.session
    if (session === undefined) {
      // Nothing to read yet; this still tells a refused token from a daemon that is down.
      await api(this.token, '/status')
      return
    }
    for (;;) {
      const after = this.cursor.afterSeq
      const page = await api<EventsPage>(
        this.token,
        `/sessions/${encodeURIComponent(session)}/events?after=${after}&limit=${HISTORY_PAGE}`,
      )
      // Asked from inside the compacted range: the stream's snapshot handles that case whole.
      if (this.session !== session || (after > 0 && page.compactedThrough > after)) return
      const fresh = page.events.filter((event) => this.cursor.accept(event))
      if (fresh.length > 0) this.handlers.onEvents(fresh)
      if (page.events.length < HISTORY_PAGE || this.cursor.afterSeq >= page.headSeq) return
    }
  }

  private onMessage(message: StreamMessage): void {
    switch (message.type) {
      case 'welcome':
        return
      case 'subscribed': {
        // The answer to a subscription already left behind (the tab switched again meanwhile):
        // taking it would follow the wrong session and drop what was read for the right one.
        if (this.session !== undefined && message.session !== this.session) return
        const reset = this.subscribed !== undefined && this.subscribed !== message.session
        if (reset) this.cursor.reset()
        this.subscribed = message.session
        this.session = message.session
        this.attempt = 0
        this.handlers.onConnection({ state: 'live' })
        this.handlers.onSubscribed(message.session, reset)
        return
      }
      case 'snapshot':
        if (message.session !== this.subscribed) return
        this.batch = []
        // A tab replaces what it shows with the snapshot, whole.
        this.cursor.snapshot(message.events)
        this.handlers.onSnapshot(message.events, message.reason)
        return
      case 'event':
        // A replay after a reconnect may overlap what is already shown: each seq is shown once.
        if (message.session !== this.subscribed || !this.cursor.accept(message.event)) return
        this.batch.push(message.event)
        if (!this.flushQueued) {
          this.flushQueued = true
          queueMicrotask(() => this.flush())
        }
        return
      case 'reply': {
        const settle = this.pending.get(message.ref)
        this.pending.delete(message.ref)
        settle?.(message)
        return
      }
      case 'error':
        if (message.error.code === 'not_found') this.fatal(message.error.message)
        return
      case 'trace':
      case 'server_log':
        this.handlers.onServerFeed(message)
        return
    }
  }

  private flush(): void {
    this.flushQueued = false
    if (this.batch.length === 0) return
    const events = this.batch
    this.batch = []
    this.handlers.onEvents(events)
  }

  private fatal(message: string): void {
    this.stopped = true
    this.ws?.close(1000, 'refused')
    this.handlers.onConnection({ state: 'refused', message })
    this.handlers.onFatal(message)
  }

  /** Waits, then connects again; the catch-up request tells a refused token from a daemon that is down. */
  private retry(why: string): void {
    this.attempt += 1
    this.handlers.onConnection({ state: 'reconnecting', attempt: this.attempt, why })
    this.retryTimer = setTimeout(() => void this.connect(), retryDelay(this.attempt))
  }
}
