// A request of a server's protocol trace sent again, as traced or with new params, through the
// operation the same request from any client takes: a call through the call path (its
// confirmation, grants, checks and transcript), a get or read recorded in the session, a
// completion, a listing, a ping. Only requests Ferry sent, of the methods it knows how to send.

import type { Ferry } from '../core/ferry.js'
import { ErrorCode, FerryError } from '../errors.js'
import type { ClientRef, TraceEntry } from '../protocol/index.js'
import {
  replayParamsSchemas,
  type ReplayParams,
  type ReplayRequest,
  type ReplayResponse,
} from '../protocol/replay.js'
import { replayRefusal, type ReplayableMethod } from '../protocol/replay-methods.js'
import { CUT_KEY } from '../mcp/protocol-trace.js'
import { plainQualifiedName } from '../tools/qualified-names.js'
import type { OfferingRunner } from './offering-runner.js'
import type { Session } from './session.js'
import type { SessionCalls } from './session-calls.js'

type Outcome = Pick<ReplayResponse, 'session' | 'callId' | 'result'>

const LISTS = {
  'tools/list': 'tools',
  'prompts/list': 'prompts',
  'resources/list': 'resources',
  'resources/templates/list': 'resourceTemplates',
} as const

export class Replays {
  constructor(
    private readonly ferry: Ferry,
    private readonly calls: SessionCalls,
    private readonly offerings: OfferingRunner,
    private readonly resolve: (id: string | undefined) => Promise<Session>,
  ) {}

  async replay(
    server: string,
    request: ReplayRequest,
    client: ClientRef,
    signal?: AbortSignal,
  ): Promise<ReplayResponse> {
    const entry = this.traced(server, request.seq)
    const refusal = replayRefusal(entry)
    if (refusal !== null) {
      throw new FerryError(
        ErrorCode.BadRequest,
        `message ${entry.seq} cannot be replayed: ${refusal}`,
      )
    }
    const method = entry.method as ReplayableMethod
    const outcome = await this.send(
      server,
      method,
      this.params(entry, method, request.params),
      request.session,
      client,
      signal,
    )
    return { server, seq: entry.seq, method, ...outcome }
  }

  private traced(server: string, seq: number): TraceEntry {
    const entry = this.ferry
      .observer(server)
      .trace.after(seq - 1)
      .find((candidate) => candidate.seq === seq)
    if (entry === undefined) {
      throw new FerryError(
        ErrorCode.NotFound,
        `server "${server}"'s trace holds no message ${seq} (it keeps the last 1,000 each way); pick one it shows`,
      )
    }
    return entry
  }

  /** The params to send: those given, else the traced ones, checked against what `method` takes. */
  private params<M extends ReplayableMethod>(
    entry: TraceEntry,
    method: M,
    given: unknown,
  ): ReplayParams<M> {
    let params = given
    if (params === undefined) {
      const message = entry.message as { params?: unknown } | null
      if (JSON.stringify(message).includes(CUT_KEY)) {
        throw new FerryError(
          ErrorCode.BadRequest,
          `message ${entry.seq} was cut in the trace (too long to keep whole), so it cannot be sent as it was; give its params to replay it`,
        )
      }
      params = message?.params
    }
    const parsed = replayParamsSchemas[method].safeParse(params)
    if (parsed.success) return parsed.data as ReplayParams<M>
    const issue = parsed.error.issues[0]
    const where = ['params', ...(issue?.path ?? [])].join('.')
    throw new FerryError(
      ErrorCode.BadRequest,
      `${where}: ${issue?.message ?? 'invalid'} (for ${method})`,
    )
  }

  private async send(
    server: string,
    method: ReplayableMethod,
    params: unknown,
    sessionId: string | undefined,
    client: ClientRef,
    signal: AbortSignal | undefined,
  ): Promise<Outcome> {
    switch (method) {
      case 'tools/call': {
        const { name, arguments: args } = params as ReplayParams<'tools/call'>
        const entry = this.ferry.registry().find((e) => e.server === server && e.tool === name)
        // A tool Ferry does not offer is refused by the call path, which says why.
        const tool = entry?.name ?? plainQualifiedName({ server, tool: name })
        const done = await this.calls.call({
          session: sessionId,
          tool,
          arguments: args ?? {},
          client,
          signal,
        })
        return { session: done.session.id, callId: done.callId, result: done.result }
      }
      case 'prompts/get': {
        const { name, arguments: args } = params as ReplayParams<'prompts/get'>
        const named = this.ferry.offerings.prompts(server).find((p) => p.prompt.name === name)
        if (named === undefined) {
          throw new FerryError(
            ErrorCode.NotFound,
            `server "${server}" lists no prompt "${name}"; name one it lists`,
          )
        }
        const session = await this.resolve(sessionId)
        const got = await this.offerings.getPrompt(
          session,
          { name: named.name, arguments: args ?? {} },
          client,
          signal,
        )
        return { session: session.id, callId: null, result: got.result }
      }
      case 'resources/read': {
        const { uri } = params as ReplayParams<'resources/read'>
        const session = await this.resolve(sessionId)
        const result = await this.offerings.readResource(session, server, uri, client, signal)
        return { session: session.id, callId: null, result }
      }
      case 'completion/complete': {
        const { ref, argument, context } = params as ReplayParams<'completion/complete'>
        const completion = await this.offerings.complete(
          { server, ref, argument, ...(context === undefined ? {} : { context }) },
          signal,
        )
        return { session: null, callId: null, result: { completion } }
      }
      case 'ping':
        await this.ferry.ping(server)
        return { session: null, callId: null, result: {} }
      default: {
        const list = LISTS[method]
        return {
          session: null,
          callId: null,
          result: { [list]: await this.ferry.relist(server, list) },
        }
      }
    }
  }
}
