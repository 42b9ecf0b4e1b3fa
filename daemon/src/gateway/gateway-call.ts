// One `tools/call` from a gateway client, through the call path every client takes (the session's
// call runner: transcript, permission broker, connection). While the call waits for the person,
// a client that sent a progress token hears from Ferry every second, so clients that reset their
// timeout on progress keep waiting; the server's own progress follows. A client that gives up
// (its cancel, or its aborted request) cancels the call and withdraws its confirmation.

import type { CallToolResult, ProgressToken, ServerContext } from '@modelcontextprotocol/server'
import { ErrorCode, FerryError, toFerryError } from '../errors.js'
import type { Log } from '../log.js'
import type { ClientRef, TranscriptEvent } from '../protocol/index.js'
import { DENIED_RESULT } from '../sessions/call-runner.js'
import type { ElicitationAsker } from '../mcp/elicitation-relay.js'
import type { Sessions } from '../sessions/sessions.js'
import type { ClientView } from './client-view.js'

/** How often a client waiting for a confirmation hears that it still waits. */
export const WAITING_PROGRESS_MS = 1_000

export const WAITING_MESSAGE = 'waiting for confirmation in Ferry'

export interface GatewayCallDeps {
  sessions: Sessions
  log: Log
  /** The WebShell's address without its token, for telling a client where the person answers. */
  webshellUrl: () => string
}

/** What the gateway's elicitation adds to a call (see elicitation.ts). */
export interface GatewayCallHooks {
  callId?: string
  /** Who answers the server's questions during the call. */
  elicit?: ElicitationAsker
  /** The client's own user answers confirmations too (`--confirm-in-client`). */
  callerCanAnswer?: boolean
}

/** The originator of a gateway client's events. */
export function gatewayClientRef(view: ClientView): ClientRef {
  return { id: `mcp:${view.grant.name}`, kind: 'mcp', label: `${view.grant.name} (gateway)` }
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true }
}

/** Notifications to the client about one call: heartbeats while it waits, then server progress. */
class ProgressRelay {
  private sent = 0
  private timer: NodeJS.Timeout | undefined

  constructor(
    private readonly token: ProgressToken | undefined,
    private readonly ctx: ServerContext,
  ) {}

  waiting(): void {
    if (this.token === undefined || this.timer !== undefined) return
    this.send(undefined, WAITING_MESSAGE)
    this.timer = setInterval(() => this.send(undefined, WAITING_MESSAGE), WAITING_PROGRESS_MS)
  }

  answered(): void {
    clearInterval(this.timer)
    this.timer = undefined
  }

  /** The server's progress; values only ever grow on the wire, after Ferry's own. */
  server(progress: number, total: number | undefined, message: string | undefined): void {
    this.send(progress > this.sent ? progress : this.sent, message, total)
  }

  private send(progress: number | undefined, message?: string, total?: number): void {
    if (this.token === undefined) return
    const value = progress ?? this.sent + 1
    this.sent = value
    this.ctx.mcpReq
      .notify({
        method: 'notifications/progress',
        params: {
          progressToken: this.token,
          progress: value,
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
  hooks: GatewayCallHooks = {},
): Promise<CallToolResult> {
  const { sessions } = deps
  const entry = view.lookup(name)
  const session = await sessions.resolve(view.grant.session ?? undefined)
  const callId = hooks.callId ?? sessions.runner.newCallId()
  const relay = new ProgressRelay(ctx.mcpReq._meta?.progressToken, ctx)
  let deniedBy: string | undefined
  let cancelledBy: ClientRef | null = null
  const unsubscribe = session.subscribe(session.info().headSeq, (event: TranscriptEvent) => {
    if (!('callId' in event) || event.callId !== callId) return
    if (event.type === 'confirmation.requested') relay.waiting()
    else if (event.type === 'confirmation.resolved') {
      relay.answered()
      if (event.outcome === 'deny') deniedBy = event.client?.label
    } else if (event.type === 'call.progress')
      relay.server(event.progress, event.total, event.message)
    else if (event.type === 'call.cancelled') cancelledBy = event.client
  })
  const client = gatewayClientRef(view)
  const onGone = () => {
    try {
      sessions.runner.cancel(callId, client)
    } catch {}
  }
  ctx.mcpReq.signal.addEventListener('abort', onGone, { once: true })
  try {
    const { result } = await sessions.runner.run(session, {
      tool: entry.name,
      arguments: args,
      client,
      callId,
      answerers: () => session.answererCount(),
      elicit: hooks.elicit,
      callerCanAnswer: hooks.callerCanAnswer,
    })
    if (result === DENIED_RESULT) {
      return errorResult(
        `${view.nameOf(entry)} was denied in Ferry${deniedBy === undefined ? '' : ` by ${deniedBy}`}; it was not called`,
      )
    }
    return result as CallToolResult
  } catch (error) {
    const failure = toFerryError(error, deps.log, {
      where: 'gateway call',
      session: session.id,
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
    if (failure.code === ErrorCode.Internal) throw failure
    return errorResult(failure.message)
  } finally {
    relay.answered()
    unsubscribe()
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
