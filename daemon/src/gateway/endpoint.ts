// The gateway endpoint behind `/mcp`: each request's era read as the SDK reads it (the body's
// `_meta` envelope, the header agreeing), legacy requests served in sessions (`Mcp-Session-Id`,
// bounded in number and idle time) and 2026-07-28 requests statelessly, per `gateway.phase`:
// 1 both eras with legacy sessions, 2 both eras with session-less legacy requests served
// statelessly, 3 the modern era only (the SDK's strict handler answers everything).

import { randomUUID } from 'node:crypto'
import type { Readable } from 'node:stream'
import {
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  legacyStatelessFallback,
  type AuthInfo,
  type McpHttpHandler,
  type McpRequestContext,
  type Server,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server'
import { errorMessage } from '../errors.js'
import { MAX_BODY_BYTES } from '../limits.js'
import { gatewayClientRef, SessionCancels } from './gateway-call.js'
import { InFlight, revokedWhileRunning, type RequestConnection } from './in-flight.js'
import { jsonRpcError, readMessage } from './request-body.js'
import { gatewayServer, refused, type GatewayServerDeps } from './gateway-server.js'
import { ClientView } from './client-view.js'
import { headerMismatch, paramHeaderProblem } from './param-headers.js'
import { GatewayTasks } from './tasks.js'
import type { ListKind } from './list-changes.js'
import { GatewayFollows } from './resource-follows.js'
import { isResourceListen, ListenFollows } from './listen-follows.js'
import { SESSION_RETRY_MS, SessionEvents } from './session-events.js'
import { settledResponse } from './settled-response.js'
import type { GatewayGrant } from './token-store.js'

/** How often idle legacy sessions are looked for. */
const SWEEP_MS = 30_000

interface LegacySession {
  transport: WebStandardStreamableHTTPServerTransport
  server: Server
  /** The token name it was opened with: only that client may use it. */
  client: string
  lastUsed: number
}

export type GatewayDeps = Omit<GatewayServerDeps, 'tasks' | 'follows'>

export { jsonRpcError }

function authInfoOf(grant: GatewayGrant): AuthInfo {
  return { token: '', clientId: grant.name, scopes: [], extra: { grant } }
}

function isToolsCall(
  body: unknown,
): body is { id: unknown; params: { name: string; arguments?: unknown } } {
  if (body === null || typeof body !== 'object') return false
  const { method, params } = body as { method?: unknown; params?: { name?: unknown } }
  return method === 'tools/call' && typeof params?.name === 'string'
}

function grantOf(ctx: McpRequestContext): GatewayGrant {
  const grant = ctx.authInfo?.extra?.grant as GatewayGrant | undefined
  // Every request reaches the handler through `fetch`, which always passes the grant.
  if (grant === undefined) throw new Error('gateway request without a grant')
  return grant
}

export class Gateway {
  private readonly modern: McpHttpHandler
  private readonly stateless: ReturnType<typeof legacyStatelessFallback>
  private readonly legacy = new Map<string, LegacySession>()
  private readonly sweeper: NodeJS.Timeout
  private readonly serverDeps: GatewayServerDeps
  private readonly inFlight = new InFlight()
  private readonly listens: ListenFollows

  constructor(private readonly deps: GatewayDeps) {
    const serverDeps = {
      ...deps,
      tasks: new GatewayTasks(deps),
      follows: new GatewayFollows(deps.sessions),
    }
    this.serverDeps = serverDeps
    this.listens = new ListenFollows({ ...deps, follows: serverDeps.follows }, (uri) =>
      this.modern.notify.resourceUpdated(uri),
    )
    const factory = (as: 'modern' | 'stateless') => (ctx: McpRequestContext) =>
      gatewayServer(serverDeps, grantOf(ctx), as)
    const onerror = (error: Error) =>
      deps.log({ kind: 'gateway.error', error: errorMessage(error) })
    this.modern = createMcpHandler(factory('modern'), {
      legacy: 'reject',
      onerror,
      maxRequestBodySize: MAX_BODY_BYTES,
    })
    this.stateless = legacyStatelessFallback(factory('stateless'), onerror, {
      maxRequestBodySize: MAX_BODY_BYTES,
    })
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS)
    this.sweeper.unref()
  }

  /**
   * Serves one authenticated request. Revoking the client's token cuts `connection`, and an
   * answer made after the revocation is replaced by the refusal of a revoked token.
   */
  async fetch(
    request: Request,
    grant: GatewayGrant,
    incoming?: Readable,
    connection?: RequestConnection,
  ): Promise<Response> {
    const inFlight = this.inFlight.begin(grant.name, connection)
    let parsedBody: unknown
    if (request.method === 'POST') {
      const read = await readMessage(request, incoming)
      if ('refusal' in read) return read.refusal
      parsedBody = read.message
    }
    const served = await this.serve(request, grant, parsedBody, (release) => {
      // A client gone before this was asked is gone all the same.
      if (request.signal.aborted) return release()
      request.signal.addEventListener('abort', release, { once: true })
      connection?.onClose(release)
    })
    const response = request.method === 'POST' ? await settledResponse(served) : served
    if (!inFlight.revoked) return response
    void response.body?.cancel().catch(() => {})
    return revokedWhileRunning()
  }

  private async serve(
    request: Request,
    grant: GatewayGrant,
    parsedBody: unknown,
    onClosed: (release: () => void) => void,
  ) {
    const options = {
      authInfo: authInfoOf(grant),
      ...(parsedBody === undefined ? {} : { parsedBody }),
    }
    const { phase } = this.deps.settings()
    const legacy =
      phase !== 3 &&
      (await isLegacyRequest(request, parsedBody, { maxRequestBodySize: MAX_BODY_BYTES }))
    if (!legacy) {
      const refusal = await this.paramHeaderRefusal(request, grant, parsedBody)
      if (refusal !== undefined) return refusal
      if (!isResourceListen(parsedBody)) return this.modern.fetch(request, options)
      // The resources the stream names are followed while it is open (see listen-follows.ts).
      const view = new ClientView(this.deps.catalog, grant)
      const listen = await this.listens.open(parsedBody, view, onClosed)
      return this.modern.fetch(request, { ...options, parsedBody: listen })
    }
    const sessionId = request.headers.get('mcp-session-id')
    if (sessionId !== null) return this.inSession(sessionId, request, grant, parsedBody)
    if (phase === 2) return this.stateless(request, options)
    if (!isInitializeRequest(parsedBody)) {
      return jsonRpcError(
        400,
        -32000,
        'Bad Request: no session; a 2025-era client sends initialize first, then the Mcp-Session-Id header it gets back with every request',
      )
    }
    return this.openSession(request, grant, parsedBody)
  }

  /** The refusal of a modern `tools/call` whose `Mcp-Param-*` headers do not fit its arguments. */
  private async paramHeaderRefusal(
    request: Request,
    grant: GatewayGrant,
    body: unknown,
  ): Promise<Response | undefined> {
    if (!isToolsCall(body)) return undefined
    const { name, arguments: args } = body.params
    const view = new ClientView(this.deps.catalog, grant)
    let inputSchema: unknown
    try {
      inputSchema = view.lookup(name).definition.inputSchema
    } catch {
      // An unknown tool is the server's to refuse, with the error every era gives.
      return undefined
    }
    const problem = paramHeaderProblem(inputSchema, args ?? {}, request.headers)
    if (problem === undefined) return undefined
    await refused(this.serverDeps, view, name, problem)
    return headerMismatch(body.id, problem)
  }

  /** Tells every client that listens which lists changed, so it lists them again. */
  listsChanged(lists: ReadonlySet<ListKind>): void {
    if (lists.has('tools')) this.modern.notify.toolsChanged()
    if (lists.has('prompts')) this.modern.notify.promptsChanged()
    if (lists.has('resources')) this.modern.notify.resourcesChanged()
    for (const { server } of this.legacy.values()) {
      if (lists.has('tools')) server.sendToolListChanged().catch(() => {})
      if (lists.has('prompts')) server.sendPromptListChanged().catch(() => {})
      if (lists.has('resources')) server.sendResourceListChanged().catch(() => {})
    }
  }

  /**
   * A client's token was revoked: its requests in flight are cut and its sessions end at once,
   * then its calls and tasks are cancelled (servers get the cancel), its questions withdrawn and
   * its grants ended.
   */
  async endClient(name: string): Promise<void> {
    this.inFlight.cut(name)
    for (const [id, session] of this.legacy) if (session.client === name) this.end(id)
    const client = gatewayClientRef({ name })
    try {
      await this.deps.sessions.endClient(client, `its gateway token "${name}" was revoked`)
    } catch (error) {
      this.deps.log({
        kind: 'gateway.revocation_incomplete',
        client: name,
        error: errorMessage(error),
      })
    }
  }

  /** Legacy sessions open now. */
  get sessionCount(): number {
    return this.legacy.size
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper)
    for (const id of [...this.legacy.keys()]) this.end(id)
    await this.modern.close()
  }

  private inSession(
    id: string,
    request: Request,
    grant: GatewayGrant,
    parsedBody: unknown,
  ): Promise<Response> {
    const session = this.legacy.get(id)
    if (
      session !== undefined &&
      Date.now() - session.lastUsed > this.deps.settings().sessionIdleMs
    ) {
      this.end(id)
    }
    // Another client's session does not exist for this one.
    if (!this.legacy.has(id) || session === undefined || session.client !== grant.name) {
      return Promise.resolve(
        jsonRpcError(
          404,
          -32001,
          'Session not found: it ended (idle, restart or revoked token); initialize again',
        ),
      )
    }
    session.lastUsed = Date.now()
    return session.transport.handleRequest(request, { authInfo: authInfoOf(grant), parsedBody })
  }

  private async openSession(
    request: Request,
    grant: GatewayGrant,
    parsedBody: unknown,
  ): Promise<Response> {
    const cancels = new SessionCancels()
    const server = gatewayServer(this.serverDeps, grant, { session: cancels })
    const transport: WebStandardStreamableHTTPServerTransport =
      new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        // A client whose stream broke resumes it from what the session kept (session-events.ts).
        eventStore: new SessionEvents(),
        retryInterval: SESSION_RETRY_MS,
        onsessioninitialized: (id) => {
          this.makeRoom()
          this.legacy.set(id, { transport, server, client: grant.name, lastUsed: Date.now() })
        },
        onsessionclosed: (id) => {
          this.legacy.delete(id)
        },
      })
    await server.connect(transport)
    cancels.watch(transport)
    const response = await transport.handleRequest(request, {
      authInfo: authInfoOf(grant),
      parsedBody,
    })
    // A request that did not open a session (not `initialize`, or refused) leaves nothing behind.
    if (transport.sessionId === undefined) void server.close().catch(() => {})
    return response
  }

  /** At the limit, the session idle longest ends to make room for a new one. */
  private makeRoom(): void {
    const { maxSessions } = this.deps.settings()
    while (this.legacy.size >= maxSessions) {
      let oldest: [string, LegacySession] | undefined
      for (const entry of this.legacy)
        if (oldest === undefined || entry[1].lastUsed < oldest[1].lastUsed) oldest = entry
      if (oldest === undefined) return
      this.deps.log({ kind: 'gateway.session_evicted', client: oldest[1].client })
      this.end(oldest[0])
    }
  }

  private sweep(): void {
    const { sessionIdleMs } = this.deps.settings()
    const now = Date.now()
    for (const [id, session] of this.legacy) {
      if (now - session.lastUsed > sessionIdleMs) this.end(id)
    }
  }

  private end(id: string): void {
    const session = this.legacy.get(id)
    if (session === undefined) return
    this.legacy.delete(id)
    void session.server.close().catch(() => {})
  }
}
