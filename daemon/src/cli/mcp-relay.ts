// Relays one stdio MCP client to the daemon's `/mcp`, messages unchanged, in whichever era the
// client speaks: the HTTP transport derives the 2026-07-28 headers from each message's envelope and
// keeps a legacy session's id. Every request of the client is answered, by Ferry or with a
// JSON-RPC error that says what failed; a legacy session that ended is opened again unseen.

import {
  isInitializedNotification,
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  PROTOCOL_VERSION_META_KEY,
  StreamableHTTPClientTransport,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type Transport,
} from '@modelcontextprotocol/client'
import { ErrorCode, errorMessage, FerryError } from '../errors.js'
import { BRIDGE_ERROR, failureOf, type Failure } from './relay-failure.js'

export interface Upstream {
  url: URL
  token: string
}

export interface RelayDeps {
  /** The client's side (stdio). */
  down: Transport
  /**
   * Where `/mcp` is and the token to show it; `first` until a connection has worked once.
   * Throws a FerryError that says why there is none.
   */
  connect: (first: boolean) => Promise<Upstream>
  /** What the client is told, and stderr says, once Ferry refused the token. */
  refusedMessage: (detail: string) => string
  /** One line for stderr. */
  report: (line: string) => void
}

type Id = JSONRPCRequest['id']

interface Pending {
  /** A 2026-07-28 request: cancelled by aborting its POST, which is the era's cancel. */
  modern: boolean
  abort: AbortController
  via?: StreamableHTTPClientTransport
  /** While its POST is under way, a failure is its own to handle (and perhaps retry). */
  sending?: boolean
}

function isModern(message: JSONRPCRequest): boolean {
  const meta = message.params?._meta as Record<string, unknown> | undefined
  return typeof meta?.[PROTOCOL_VERSION_META_KEY] === 'string'
}

export class McpRelay {
  private up: StreamableHTTPClientTransport | undefined
  private connecting: Promise<StreamableHTTPClientTransport> | undefined
  private connectedOnce = false
  /** The client's `initialize`, replayed when its session has to be opened again. */
  private handshake: JSONRPCRequest | undefined
  private handshakeDone = false
  private initialized = false
  private refused: string | undefined
  private readonly pending = new Map<Id, Pending>()
  /** Answers to the relay's own requests, which the client never sees. */
  private readonly internal = new Map<Id, (message: JSONRPCMessage | undefined) => void>()
  private reopened = 0

  constructor(private readonly deps: RelayDeps) {}

  /** Starts relaying and connects at once, so the client's first request finds Ferry ready. */
  start(): void {
    this.deps.down.onmessage = (message) => void this.fromClient(message)
    this.transport().catch((error: unknown) =>
      this.deps.report(failureOf(error, this.deps.refusedMessage).message),
    )
  }

  /** Ends a legacy session (DELETE) and the connection. */
  async close(): Promise<void> {
    await this.connecting?.catch(() => {})
    const up = this.up
    this.up = undefined
    if (up?.sessionId !== undefined) await up.terminateSession().catch(() => {})
    await up?.close().catch(() => {})
  }

  private async fromClient(message: JSONRPCMessage): Promise<void> {
    if (isJSONRPCRequest(message)) {
      if (this.refused !== undefined) return this.answer(message.id, BRIDGE_ERROR, this.refused)
      this.pending.set(message.id, { modern: isModern(message), abort: new AbortController() })
      if (isInitializeRequest(message)) {
        this.handshake = message
        this.handshakeDone = false
      }
    } else if (isJSONRPCNotification(message)) {
      if (this.refused !== undefined) return
      if (message.method === 'notifications/cancelled') {
        const id = message.params?.requestId as Id | undefined
        const pending = id === undefined ? undefined : this.pending.get(id)
        if (pending?.modern === true) {
          this.pending.delete(id as Id)
          pending.abort.abort()
          return
        }
      }
      if (isInitializedNotification(message)) this.initialized = true
    }
    await this.forward(message, false)
  }

  private async forward(message: JSONRPCMessage, retried: boolean): Promise<void> {
    const id = isJSONRPCRequest(message) ? message.id : undefined
    let up: StreamableHTTPClientTransport
    try {
      up = await this.transport()
    } catch (error) {
      return this.fail(message, failureOf(error, this.deps.refusedMessage))
    }
    const pending = id === undefined ? undefined : this.pending.get(id)
    if (id !== undefined && pending === undefined) return // cancelled meanwhile
    if (pending !== undefined) {
      pending.via = up
      pending.sending = true
    }
    try {
      await up.send(
        message,
        pending === undefined
          ? undefined
          : {
              requestSignal: pending.abort.signal,
              onRequestStreamEnd: () => this.streamEnded(id as Id),
            },
      )
      if (pending !== undefined) pending.sending = false
    } catch (error) {
      if (pending?.abort.signal.aborted === true) return
      const failure = failureOf(error, this.deps.refusedMessage)
      const again =
        (failure.kind === 'session-gone' && this.handshakeDone) ||
        failure.kind === 'connection-refused'
      if (!retried && again) {
        this.drop(up)
        return this.forward(message, true)
      }
      if (failure.kind === 'refused') {
        this.refused = failure.message
        this.deps.report(failure.message)
      }
      this.fail(message, failure)
    }
  }

  private fromDaemon(up: StreamableHTTPClientTransport, message: JSONRPCMessage): void {
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      const id = message.id as Id
      const waiter = this.internal.get(id)
      if (waiter !== undefined) {
        this.internal.delete(id)
        return waiter(message)
      }
      if (this.handshake?.id === id && isJSONRPCResultResponse(message)) {
        // Later POSTs of the session carry MCP-Protocol-Version, as the spec asks.
        const version = message.result.protocolVersion
        if (typeof version === 'string') up.setProtocolVersion(version)
        this.handshakeDone = true
      }
      this.pending.delete(id)
    }
    this.toClient(message)
  }

  private transport(): Promise<StreamableHTTPClientTransport> {
    if (this.up !== undefined) return Promise.resolve(this.up)
    this.connecting ??= this.open().finally(() => (this.connecting = undefined))
    return this.connecting
  }

  private async open(): Promise<StreamableHTTPClientTransport> {
    const { url, token } = await this.deps.connect(!this.connectedOnce)
    const up = new StreamableHTTPClientTransport(url, {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    })
    up.onmessage = (message) => this.fromDaemon(up, message)
    up.onerror = (error) => this.deps.report(`ferry mcp: ${errorMessage(error)}`)
    await up.start()
    try {
      if (this.handshakeDone) await this.reopenSession(up)
    } catch (error) {
      await up.close().catch(() => {})
      throw error
    }
    this.up = up
    this.connectedOnce = true
    return up
  }

  /** Opens a new session with the client's own `initialize`; the client never sees it. */
  private async reopenSession(up: StreamableHTTPClientTransport): Promise<void> {
    const handshake = this.handshake as JSONRPCRequest
    const id = `ferry-mcp-reopen-${++this.reopened}`
    const answer = new Promise<JSONRPCMessage | undefined>((resolve) =>
      this.internal.set(id, resolve),
    )
    try {
      await up.send(
        { ...handshake, id },
        { onRequestStreamEnd: () => this.internal.get(id)?.(undefined) },
      )
    } catch (error) {
      this.internal.delete(id)
      throw error
    }
    const reply = await answer
    this.internal.delete(id)
    if (reply === undefined || !isJSONRPCResultResponse(reply)) {
      const why =
        reply !== undefined && isJSONRPCErrorResponse(reply) ? reply.error.message : 'no answer'
      throw new FerryError(ErrorCode.UpstreamError, `Ferry refused a new session: ${why}`)
    }
    const version = reply.result.protocolVersion
    if (typeof version === 'string') up.setProtocolVersion(version)
    if (this.initialized) await up.send({ jsonrpc: '2.0', method: 'notifications/initialized' })
    this.deps.report('ferry mcp: the session with Ferry had ended; opened a new one')
  }

  /** Gives up a connection that failed; requests still waiting on it are answered. */
  private drop(up: StreamableHTTPClientTransport): void {
    if (this.up === up) this.up = undefined
    for (const [id, pending] of this.pending) {
      if (pending.via !== up || pending.sending === true) continue
      this.pending.delete(id)
      this.answer(id, BRIDGE_ERROR, 'ferry mcp: the connection to Ferry ended before it answered')
    }
    void up.close().catch(() => {})
  }

  private streamEnded(id: Id): void {
    if (!this.pending.has(id)) return
    this.pending.delete(id)
    this.answer(
      id,
      BRIDGE_ERROR,
      'ferry mcp: the connection to Ferry ended before it answered; check `ferry status`',
    )
  }

  private fail(message: JSONRPCMessage, failure: Failure): void {
    if (isJSONRPCRequest(message)) {
      this.pending.delete(message.id)
      this.answer(message.id, failure.code, failure.message)
    } else if (failure.kind !== 'refused') {
      this.deps.report(failure.message)
    }
  }

  private answer(id: Id, code: number, message: string): void {
    this.toClient({ jsonrpc: '2.0', id, error: { code, message } })
  }

  private toClient(message: JSONRPCMessage): void {
    this.deps.down.send(message).catch((error: unknown) => {
      this.deps.report(`ferry mcp: cannot write to the client: ${errorMessage(error)}`)
    })
  }
}
