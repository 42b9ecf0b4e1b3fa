// One `tools/call` from a gateway client, through the call path every client takes (the session's
// call runner: transcript, permission broker, connection). While the call waits for the person,
// a client that sent a progress token hears from Ferry every second, so clients that reset their
// timeout on progress keep waiting; the server's own progress follows. A client that gives up
// (its cancel, or its aborted request) cancels the call and withdraws its confirmation, unless
// the request was already answered with a task (tasks.ts): then only `tasks/cancel` ends it.

import {
  ProtocolError,
  isJSONRPCNotification,
  type CallToolResult,
  type ProgressToken,
  type RequestId,
  type ServerContext,
  type Transport,
} from '@modelcontextprotocol/server'
import { ErrorCode, FerryError, toFerryError } from '../errors.js'
import type { Log } from '../log.js'
import type { ClientRef, TranscriptEvent } from '../protocol/index.js'
import { DENIED_RESULT, type SessionHandle, type SessionsApi } from '../service/ferry-service.js'
import type { ElicitationAsker, RootsAsker, SamplingAsker } from '../mcp/call-asker.js'
import type { ClientView } from './client-view.js'

/** How often a client waiting for a confirmation hears that it still waits. */
export const WAITING_PROGRESS_MS = 1_000

export const WAITING_MESSAGE = 'waiting for confirmation in Ferry'

/** How many cancelled request ids a legacy session keeps. */
const REMEMBERED_CANCELS = 64

/**
 * The requests a legacy session's client cancelled. A cancel travels in a POST of its own and
 * can overtake the request it names, which the SDK then drops as a cancel of nothing; a call
 * looks here once it is under way.
 */
export class SessionCancels {
  private readonly ids = new Set<RequestId>()

  /** Notes each `notifications/cancelled` that reaches the transport's server. */
  watch(transport: Transport): void {
    const deliver = transport.onmessage
    transport.onmessage = (message, extra) => {
      if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
        const id = message.params?.requestId
        if (typeof id === 'string' || typeof id === 'number') this.note(id)
      }
      deliver?.(message, extra)
    }
  }

  has(id: RequestId): boolean {
    return this.ids.has(id)
  }

  private note(id: RequestId): void {
    this.ids.add(id)
    for (const old of this.ids) {
      if (this.ids.size <= REMEMBERED_CANCELS) break
      this.ids.delete(old)
    }
  }
}

export interface GatewayCallDeps {
  sessions: SessionsApi
  log: Log
  /** The WebShell's address without its token, for telling a client where the person answers. */
  webshellUrl: () => string
  /** How often a waiting client hears that it still waits; `WAITING_PROGRESS_MS` by default. */
  waitingProgressMs?: number | undefined
}

/** How the task logic follows a call it may answer early with a task. */
export interface CallWatch {
  /** Each stored event of the call, as it is stored. */
  onEvent?: (event: TranscriptEvent, session: SessionHandle) => void
  /** True once the request was answered with a task: the call no longer belongs to it. */
  detached?: () => boolean
}

/** What the gateway's elicitation adds to a call (see elicitation.ts). */
export interface GatewayCallHooks {
  callId?: string
  /** Who answers the server's form questions during the call (the client); else the people. */
  elicit?: ElicitationAsker
  /** Who answers the server's sampling requests during the call (the client); else the people. */
  sample?: SamplingAsker
  /** The client's roots, when it declared them: a server with `"roots": "client"` gets these. */
  roots?: RootsAsker
  /** Why the client itself cannot be asked, for the reason when nobody in Ferry can either. */
  elicitUnavailable?: string
  /** The client's own user answers confirmations too (`--confirm-in-client`). */
  callerCanAnswer?: boolean
}

/** The originator of a gateway client's events, named by its token. */
export function gatewayClientRef(client: ClientView | { name: string }): ClientRef {
  const name = 'grant' in client ? client.grant.name : client.name
  return { id: `mcp:${name}`, kind: 'mcp', label: `${name} (gateway)` }
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true }
}

/** What the client hears of a call the person denied; `by` is the answer's label. */
export function deniedResult(name: string, by: string | undefined): CallToolResult {
  return errorResult(
    `${name} was denied in Ferry${by === undefined ? '' : ` by ${by}`}; it was not called`,
  )
}

/** Notifications to the client about one call: heartbeats while it waits, then server progress. */
class ProgressRelay {
  /** The last value sent; nothing sent yet is below any value. */
  private sent = Number.NEGATIVE_INFINITY
  /** The heartbeats sent before the server's first progress, which its values follow on from. */
  private base: number | undefined
  private timer: NodeJS.Timeout | undefined

  constructor(
    private readonly token: ProgressToken | undefined,
    private readonly ctx: ServerContext,
    private readonly quiet: () => boolean,
    private readonly everyMs: number,
  ) {}

  waiting(): void {
    if (this.token === undefined || this.timer !== undefined || this.quiet()) return
    const beat = () => this.send(Math.max(this.sent, 0) + 1, WAITING_MESSAGE)
    beat()
    this.timer = setInterval(beat, this.everyMs)
  }

  answered(): void {
    clearInterval(this.timer)
    this.timer = undefined
  }

  /**
   * The server's progress, counted on from Ferry's heartbeats (MCP wants every value for a token
   * to grow), its total shifted alike so it still marks the end. A value that does not grow is
   * not passed on.
   */
  server(progress: number, total: number | undefined, message: string | undefined): void {
    this.base ??= Math.max(this.sent, 0)
    const value = this.base + progress
    if (value <= this.sent) return
    this.send(value, message, total === undefined ? undefined : this.base + total)
  }

  private send(progress: number, message?: string, total?: number): void {
    if (this.token === undefined || this.quiet()) return
    this.sent = progress
    this.ctx.mcpReq
      .notify({
        method: 'notifications/progress',
        params: {
          progressToken: this.token,
          progress,
          ...(total === undefined ? {} : { total }),
          ...(message === undefined ? {} : { message }),
        },
      })
      .catch(() => {})
  }
}

export async function gatewayCall(
  deps: GatewayCallDeps,
  view: ClientView,
  name: string,
  args: Record<string, unknown>,
  ctx: ServerContext,
  watch: CallWatch = {},
  cancels?: SessionCancels,
  hooks: GatewayCallHooks = {},
): Promise<CallToolResult> {
  const { sessions } = deps
  const detached = () => watch.detached?.() === true
  const entry = view.lookup(name)
  const callId = hooks.callId ?? sessions.newCallId()
  const relay = new ProgressRelay(
    ctx.mcpReq._meta?.progressToken,
    ctx,
    detached,
    deps.waitingProgressMs ?? WAITING_PROGRESS_MS,
  )
  let deniedBy: string | undefined
  let cancelledBy: ClientRef | null = null
  let session: SessionHandle | undefined
  const onEvent = (event: TranscriptEvent) => {
    if (!('callId' in event) || session === undefined) return
    watch.onEvent?.(event, session)
    if (event.type === 'confirmation.requested') relay.waiting()
    else if (event.type === 'confirmation.resolved') {
      relay.answered()
      if (event.outcome === 'deny') deniedBy = event.client?.label
    } else if (event.type === 'call.progress')
      relay.server(event.progress, event.total, event.message)
    else if (event.type === 'server.log') {
      // The server's log while it worked on this call, at the level this client chose (the SDK
      // filters: a legacy session's `logging/setLevel`, a 2026-07-28 request's own `_meta`).
      if (!detached())
        ctx.mcpReq.log(event.level, event.data, event.logger ?? undefined).catch(() => {})
    } else if (event.type === 'call.cancelled') cancelledBy = event.client
  }
  const client = gatewayClientRef(view)
  // A client that gives up cancels the call, unless the call became a task meanwhile.
  const gone = new AbortController()
  const onGone = () => {
    if (!detached()) gone.abort()
  }
  ctx.mcpReq.signal.addEventListener('abort', onGone, { once: true })
  try {
    const { result } = await sessions.call({
      session: view.grant.session ?? undefined,
      tool: entry.name,
      arguments: args,
      client,
      callId,
      signal: gone.signal,
      elicit: hooks.elicit,
      sample: hooks.sample,
      roots: hooks.roots,
      elicitUnavailable: hooks.elicitUnavailable,
      callerCanAnswer: hooks.callerCanAnswer,
      onStart: (started) => {
        session = started.session
        // A client that gave up while its call was being set up cancels it as soon as it can be.
        if (ctx.mcpReq.signal.aborted || cancels?.has(ctx.mcpReq.id) === true) onGone()
      },
      onEvent,
    })
    if (result === DENIED_RESULT) {
      return deniedResult(view.nameOf(entry), deniedBy)
    }
    return result as CallToolResult
  } catch (error) {
    const failure = toFerryError(error, deps.log, {
      where: 'gateway call',
      session: session?.id,
      callId,
    })
    if (failure.code === ErrorCode.ConfirmationUnavailable) {
      return errorResult(
        `${view.nameOf(entry)} needs the person's confirmation in Ferry and nobody is there to give it: open the WebShell at ${deps.webshellUrl()} (\`ferry open\`) or attach a terminal with \`ferry attach\`, then call again`,
      )
    }
    if (failure.code === ErrorCode.ToolCancelled) {
      const by = cancelledBy as ClientRef | null
      return errorResult(
        by === null || by.id === client.id
          ? `${view.nameOf(entry)} was cancelled`
          : `${view.nameOf(entry)} was cancelled in Ferry by ${by.label}`,
      )
    }
    // Arguments the call path refused are the client's to fix: MCP's Invalid params (see
    // gateway-server.ts), never a tool result a model would read as the tool's own answer.
    if (failure.code === ErrorCode.Internal || failure.code === ErrorCode.InvalidArguments) {
      throw failure
    }
    // A JSON-RPC error the server itself answered (a client capability it requires, arguments it
    // refuses) reaches the client as the server gave it, code and data included.
    const own: unknown = failure.code === ErrorCode.UpstreamError ? failure.cause : undefined
    if (own instanceof ProtocolError) throw own
    return errorResult(failure.message)
  } finally {
    relay.answered()
    ctx.mcpReq.signal.removeEventListener('abort', onGone)
  }
}

/** A name the client cannot call: the JSON-RPC error MCP gives for an unknown tool. */
export function isUnknownTool(error: unknown): error is FerryError {
  return (
    error instanceof FerryError &&
    (error.code === ErrorCode.ToolNotFound || error.code === ErrorCode.Forbidden)
  )
}

/** Arguments the call path refused before recording the call: MCP's Invalid params too. */
export function isRefusedArguments(error: unknown): error is FerryError {
  return error instanceof FerryError && error.code === ErrorCode.InvalidArguments
}
