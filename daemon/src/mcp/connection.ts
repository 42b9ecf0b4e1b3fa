// One live connection to one configured MCP server: negotiation within the discovery budget,
// discovery, tool calls (as tasks where a tool needs one), prompt gets, resource reads, crash and
// outage detection, and reconnects with backoff.
// A remote server that lost the session (404) gets a new one at once, and the request is resent.

import {
  Client,
  InsufficientScopeError,
  SdkError,
  SdkErrorCode,
  UnauthorizedError,
  type Transport,
} from '@modelcontextprotocol/client'
import type {
  CallToolResult,
  CompleteRequest,
  CompleteResult,
  DiscoverResult,
  GetPromptResult,
  Progress,
  ReadResourceResult,
} from '@modelcontextprotocol/client'
import { readToolUi } from '../apps/tool-ui.js'
import { clientCapabilities } from '../apps/ui-extension.js'
import type { ServerConfig, TransportKind } from '../config/types.js'
import { ErrorCode, FerryError, errorMessage } from '../errors.js'
import type { Log } from '../log.js'
import type { LogLevel, ProtocolEra, ServerStatus } from '../protocol/index.js'
import { redactUrls } from '../protocol/redact-url.js'
import { isToolAllowed } from '../tools/registry.js'
import { AppChecks, namedApps } from './app-checks.js'
import { planConnect, type ConnectPlan, type ProbeCaps } from './connect-plan.js'
import { legacyEvidence } from './era-fallback.js'
import { describeCallFailure } from './call-errors.js'
import { ChangeWatch } from './change-watch.js'
import { describeConnectFailure } from './connect-errors.js'
import type { CallAsker } from './call-asker.js'
import { CallClock, type CallTimer } from './call-timer.js'
import { ElicitationRelay } from './elicitation-relay.js'
import { featureCapabilities, rootsOf, sameRoots, undeclaredTo } from './feature-capabilities.js'
import { listSide, listTools, type CacheMode, type Discovered, type SideList } from './discovery.js'
import { describeHttpFailure, remoteFaultOf, type HttpFailure } from './http-failures.js'
import { RemoteRecovery } from './remote-recovery.js'
import { rediscover, sameDiscover, type PriorStore } from './prior-store.js'
import type { ServerObserver } from './server-observer.js'
import { ServerProcess, spawnFailureOf, type SpawnFailure } from './server-process.js'
import type { ServerReaper } from './server-reaper.js'
import { StderrRing } from './stderr-ring.js'
import { taskSupportOf } from '../tools/task-support.js'
import { callAsTask, NO_TASK_CALLS, taskCallsOn } from './task-call.js'
import { createTransport, type TransportFactory } from './transports.js'
import type { ServerSignIn, SignIns } from './oauth/sign-ins.js'

export const BACKOFF_START_MS = 500
export const BACKOFF_CAP_MS = 30_000
/** A connection that stayed up this long before failing starts its backoff afresh. */
export const STABLE_AFTER_MS = 60_000
/** The per-call timeout resets on progress; this multiple of it still bounds the whole call. */
export const MAX_TOTAL_TIMEOUT_FACTOR = 10

export interface ConnectionDeps {
  clientInfo: { name: string; version: string }
  /** Makes each attempt's transport; the one the settings name unless a test supplies its own. */
  transport?: TransportFactory | undefined
  priors: PriorStore
  /** Marks stdio servers and ends what they start (one per daemon). */
  reaper: ServerReaper
  /** How long a probe may wait; PROBE_CAPS unless a test shortens it. */
  probeCaps?: ProbeCaps | undefined
  log: Log
  /** Called whenever the server's status or lists change. */
  onChange: () => void
  onStatus: (server: string, status: ServerStatus, error: string | null) => void
  /** Something a server declared was ignored, e.g. an App resource that is not `ui://`. */
  onWarning: (server: string, message: string) => void
  /** The server's trace, log level and log lines, kept by name across connections. */
  observer: (server: string, level: LogLevel) => ServerObserver
  /** The resource URIs followed on a server, subscribed again on each connect. */
  subscriptions?: (server: string) => readonly string[]
  onResourceUpdated?: (server: string, uri: string) => void
  /** The connection did not start because `recheck` found its approval no longer holds. */
  onApprovalLapsed?: (server: string, reason: string) => void
  /** OAuth sign-in for remote servers; without it a 401 is a plain failure. */
  signIns?: SignIns
}

export interface CallOptions {
  signal?: AbortSignal | undefined
  timeoutMs?: number | undefined
  onProgress?: ((progress: Progress) => void) | undefined
  /** Who is asked when the server asks for input during this call; without it, nobody is. */
  asker?: CallAsker | undefined
}

const noDiscovery: Discovered = { tools: [], prompts: [], resources: [], resourceTemplates: [] }

/** What each list-changed notification from a server makes it list again. */
const sideListsOf = {
  'notifications/prompts/list_changed': ['prompts'],
  'notifications/resources/list_changed': ['resources', 'resourceTemplates'],
} as const

export class Connection {
  status: ServerStatus = 'connecting'
  era: ProtocolEra | null = null
  protocolVersion: string | null = null
  error: string | null = null
  restartCount = 0
  discovered: Discovered = noDiscovery
  /** How tools that need a task are called on the current connection, or why they cannot be. */
  taskCalls = NO_TASK_CALLS
  /** The transport in use: the configured one, or SSE after a bare `url` fell back to it. */
  transport: TransportKind
  readonly stderr: StderrRing
  readonly observer: ServerObserver
  /** Why each App its tools name cannot be shown, checked ahead of any call. */
  readonly appChecks: AppChecks

  private client: Client | undefined
  /** The client of an attempt still in progress, so `close()` can abort it. */
  private pending: Client | undefined
  private generation = 0
  private closed = false
  private everReady = false
  private backoffMs = BACKOFF_START_MS
  private readyAt = 0
  private retryTimer: NodeJS.Timeout | undefined
  private readonly serverProcess: ServerProcess
  /** The `WWW-Authenticate` challenge of the current attempt's last 401, if any. */
  private authChallenge: string | undefined
  /** Why a remote server is down, while it is. */
  private downReason: string | undefined
  /** The last failure, kept while a reconnect is under way so calls can still name it. */
  private lastFailure: string | undefined
  /** Warnings already reported, so a relisting or reconnect does not repeat them. */
  private readonly warned = new Set<string>()
  private readonly recovery: RemoteRecovery
  private readonly elicitation: ElicitationRelay
  /** A remote server's OAuth sign-in, unless its settings turn it off. */
  readonly signIn: ServerSignIn | undefined
  /** The current attempt's last 401, its body read from a copy, if it was answered one. */
  private last401: Promise<HttpFailure> | undefined
  private readonly watch: ChangeWatch

  constructor(
    /** Replaced on reload when only fields outside the fingerprint changed. */
    public config: ServerConfig,
    readonly fingerprint: string,
    private readonly deps: ConnectionDeps,
    /**
     * For an approved workspace entry: why its approval no longer holds (a file it runs changed),
     * asked before every start, reconnects and restarts after a crash included.
     */
    private readonly recheck?: () => Promise<string | undefined>,
  ) {
    this.transport = config.transport
    this.signIn =
      config.transport !== 'stdio' && config.oauth.enabled
        ? deps.signIns?.forServer(config)
        : undefined
    this.observer = deps.observer(config.name, config.logLevel)
    this.serverProcess = new ServerProcess(deps.reaper)
    this.stderr = new StderrRing(500, 4000, (line) => this.observer.stderrLine(line))
    this.recovery = new RemoteRecovery({
      name: config.name,
      transport: () => this.transport,
      log: deps.log,
      ready: () => ({ client: this.readyClient(), generation: this.generation }),
      renew: async () => {
        await this.dropClient()
        await this.connect()
      },
      down: (generation, reason) => this.markDown(generation, reason),
    })
    this.watch = new ChangeWatch({
      server: config.name,
      log: deps.log,
      wanted: () => deps.subscriptions?.(config.name) ?? [],
      onUpdated: (uri) => deps.onResourceUpdated?.(config.name, uri),
      timeoutMs: () => this.config.discoveryTimeoutMs,
    })
    this.appChecks = new AppChecks({
      server: config.name,
      listedMeta: (uri) => this.discovered.resources.find((r) => r.uri === uri)?._meta,
      timeoutMs: () => this.config.appResourceTimeoutMs,
      log: deps.log,
      onChange: deps.onChange,
    })
    this.elicitation = new ElicitationRelay({
      server: config.name,
      roots: () => rootsOf(this.config),
      rootsFromCaller: () => this.config.roots === 'client',
      onDecline: (tool, reason) =>
        deps.log({ kind: 'server.elicitation_declined', server: config.name, tool, reason }),
    })
  }

  get name(): string {
    return this.config.name
  }

  /** Settings outside the fingerprint changed (on reload); changed roots are announced. */
  reconfigure(config: ServerConfig): void {
    const before = rootsOf(this.config)
    this.config = config
    void this.observer.configure(config.logLevel)
    if (this.client === undefined || sameRoots(before, rootsOf(config))) return
    this.client.sendRootsListChanged().catch((error: unknown) => {
      this.deps.log({
        kind: 'server.roots_unannounced',
        server: this.name,
        error: errorMessage(error),
      })
    })
  }

  /** Starts connecting; progress shows in `status`. Resolves when this first attempt settles. */
  start(): Promise<void> {
    return this.connect()
  }

  /** Drops the current connection (if any) and connects again now. */
  async reconnect(): Promise<void> {
    clearTimeout(this.retryTimer)
    await this.dropClient()
    this.backoffMs = BACKOFF_START_MS
    await this.connect()
  }

  async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.retryTimer)
    await Promise.all([this.dropClient(), this.pending?.close().catch(() => {})])
    this.serverProcess.killAll()
  }

  async refreshTools(mode: CacheMode): Promise<void> {
    const tools = await this.recovery.run((client) => listTools(client, mode))
    this.discovered = { ...this.discovered, tools }
    this.reportToolWarnings()
    this.deps.onChange()
    if (this.client !== undefined) this.checkApps(this.client)
  }

  /**
   * Lists `list` again on the wire (past any cache), every page, and keeps what the server lists
   * now; the listing as it came.
   */
  async relist(list: 'tools' | SideList): Promise<Discovered[typeof list]> {
    if (list === 'tools') {
      await this.refreshTools('refresh')
      return this.discovered.tools
    }
    return this.recovery.run(async (client) => {
      const generation = this.generation
      const items = await listSide(client, list, 'refresh', this.config.discoveryTimeoutMs)
      if (this.keepSideList(generation, list, items) && list === 'resources') {
        this.checkApps(client)
      }
      return items
    })
  }

  /** Sends `ping`, within the server's timeout. */
  async ping(): Promise<void> {
    await this.recovery.run((client) => client.ping({ timeout: this.config.timeout }))
  }

  /** Reads through `client` directly: it may be listing before the connection is ready. */
  private checkApps(client: Client): void {
    this.appChecks.checkAll(namedApps(this.discovered.tools, this.config), (uri, options) =>
      client.readResource({ uri }, { signal: options.signal }),
    )
  }

  /** Reads one resource (an App's HTML, say); errors are the SDK's, for the caller to phrase. */
  async readResource(uri: string, options: { signal: AbortSignal }): Promise<ReadResourceResult> {
    return this.recovery.run((client) => client.readResource({ uri }, { signal: options.signal }))
  }

  /**
   * Gets one prompt; errors are the SDK's, for the caller to phrase. A 2026-07-28 server's
   * questions before it answers go to `asker`, as a call's do, while `timer` (the get's clock,
   * else the server's timeout per request) waits for them.
   */
  async getPrompt(
    name: string,
    args: Record<string, string> | undefined,
    options: { signal: AbortSignal; asker?: CallAsker | undefined; timer?: CallTimer | undefined },
  ): Promise<GetPromptResult> {
    const get = this.elicitation.begin(`prompt ${name}`, options.asker, options.timer)
    const timeout = options.timer === undefined ? this.config.timeout : CallClock.SDK_TIMEOUT_MS
    try {
      return await this.recovery.run((client) =>
        this.elicitation.getPrompt(
          client,
          get,
          { name, ...(args === undefined ? {} : { arguments: args }) },
          { signal: options.signal, timeout },
        ),
      )
    } finally {
      this.elicitation.end(get)
    }
  }

  /** Follows a resource: `resources/subscribe`, or the modern listen stream's filter. */
  subscribeResource(uri: string): Promise<void> {
    this.readyClient()
    return this.watch.subscribe(uri)
  }

  unsubscribeResource(uri: string): Promise<void> {
    return this.watch.unsubscribe(uri)
  }

  /** What this connection does not declare to its server (see `undeclaredTo`). */
  undeclared(): string[] {
    return undeclaredTo(this.config, this.era)
  }

  /** Completion values for a prompt argument or template variable; none if the server does not complete. */
  async complete(
    params: CompleteRequest['params'],
    options: { signal: AbortSignal },
  ): Promise<CompleteResult> {
    return this.recovery.run((client) =>
      client.getServerCapabilities()?.completions === undefined
        ? Promise.resolve({ completion: { values: [] } })
        : client.complete(params, { signal: options.signal, timeout: this.config.timeout }),
    )
  }

  async callTool(
    tool: string,
    args: Record<string, unknown>,
    options: CallOptions = {},
  ): Promise<CallToolResult> {
    const timeout = options.timeoutMs ?? this.config.timeout
    const definition = this.discovered.tools.find((listed) => listed.name === tool)
    const needsTask = definition !== undefined && taskSupportOf(definition) === 'required'
    const { asTask: taskCalls, blocker } = this.taskCalls
    if (needsTask && blocker !== null) {
      throw new FerryError(
        ErrorCode.UpstreamError,
        `${tool} on "${this.name}" cannot be called: ${blocker}`,
      )
    }
    const asTask = needsTask && taskCalls
    // Ferry's own clock, which stands still while a person answers the server's question.
    const clock = new CallClock(timeout, timeout * MAX_TOTAL_TIMEOUT_FACTOR, options.signal)
    const call = this.elicitation.begin(tool, options.asker, clock.timer)
    const stderrMark = this.stderr.mark()
    try {
      const callOptions = {
        signal: clock.signal,
        timeout: CallClock.SDK_TIMEOUT_MS,
        onprogress: (progress: Progress) => {
          clock.timer.progress()
          options.onProgress?.(progress)
        },
        allowInputRequired: true,
      }
      const result = await this.recovery.run((client) =>
        asTask
          ? callAsTask(client, tool, args, {
              ...callOptions,
              onAlive: () => clock.timer.progress(),
            })
          : this.elicitation.callTool(client, call, tool, args, callOptions),
      )
      this.signIn?.accepted()
      return result
    } catch (error) {
      const expired = clock.expired(this.name, tool)
      if (expired !== undefined) throw expired
      const refused = this.refusedAuthorization(error)
      if (refused !== undefined) throw refused
      const closed = error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed
      if (closed && this.config.transport === 'stdio') await this.serverProcess.ended()
      const fault = this.config.transport === 'stdio' ? undefined : remoteFaultOf(error)
      throw describeCallFailure(error, {
        server: this.name,
        tool,
        cancelled: options.signal?.aborted === true,
        timeout,
        processEnd:
          this.config.transport === 'stdio'
            ? this.serverProcess.describeEnd()
            : this.downReason === undefined
              ? undefined
              : `became unreachable (${this.downReason})`,
        lastStderr: closed ? this.stderr.writtenSince(stderrMark) : undefined,
        unreachable: fault?.kind === 'down' ? fault.reason : undefined,
      })
    } finally {
      clock.stop()
      this.elicitation.end(call)
    }
  }

  /** Refused, dropped or 5xx: failed until a reconnect, with the backoff of a crashed process. */
  private markDown(generation: number, reason: string): void {
    if (generation !== this.generation || this.closed) return
    void this.dropClient()
    this.downReason = reason
    this.lost(`server unreachable: ${reason}`)
  }

  /**
   * A call the server refused for authorization (the token is gone and could not be refreshed, or
   * it lacks a scope the call needs): the server waits for a person to sign in again, and the
   * call fails saying so. Undefined for any other failure.
   */
  private refusedAuthorization(error: unknown): FerryError | undefined {
    if (this.signIn === undefined) return undefined
    if (error instanceof InsufficientScopeError) {
      const refusal = this.scopeRefusal(error)
      if (refusal instanceof FerryError) {
        void this.dropClient()
        clearTimeout(this.retryTimer)
        this.setStatus('failed', refusal.message)
        return new FerryError(ErrorCode.UpstreamError, `server "${this.name}": ${this.error}`)
      }
      this.needsLogin(refusal.message)
    } else if (error instanceof UnauthorizedError) {
      this.needsLogin('the server no longer accepts the sign-in, and it could not be renewed')
    } else {
      return undefined
    }
    return this.notReadyError()
  }

  /**
   * The server refused for a scope the token lacks: a step-up sign-in, or, once the step-ups
   * allowed did not help, the reason Ferry stopped asking (a FerryError: the server fails).
   */
  private scopeRefusal(error: InsufficientScopeError): SignInNeeded | FerryError {
    const signIn = this.signIn as ServerSignIn
    signIn.noteScopeRefusal(error.requiredScope)
    if (signIn.refusedForScope(error.requiredScope) === 'gave_up') {
      return new FerryError(ErrorCode.UpstreamError, signIn.stoppedAsking ?? 'the server refused')
    }
    const scope = error.requiredScope === undefined ? '' : ` (scope "${error.requiredScope}")`
    return new SignInNeeded(`the server asks for more access${scope}`)
  }

  /** Waits for a person's sign-in; nothing reconnects until it is done. */
  private needsLogin(why: string): void {
    void this.dropClient()
    clearTimeout(this.retryTimer)
    this.setStatus('needs_login', `${why}: run \`ferry login ${this.name}\` to sign in`)
  }

  /** Starts a sign-in a person asked for: the authorization page to open. */
  async beginSignIn(): Promise<{ authorizationUrl: string; expiresAt: number }> {
    const signIn = this.requireSignIn()
    return signIn.begin()
  }

  /**
   * Redeems the code the browser brought back, then connects with the new tokens. Resolves with
   * the status that leaves the server in: `ready`, or why not.
   */
  async finishSignIn(
    code: string,
    iss: string | undefined,
    verifier: string,
  ): Promise<{ status: ServerStatus; error: string | null }> {
    await this.requireSignIn().finish(code, iss, verifier)
    await this.reconnect()
    return { status: this.status, error: this.error }
  }

  /** Forgets the server's tokens (revoking them where offered); it then needs a sign-in. */
  async forgetSignIn(): Promise<{ forgotten: boolean; revoked: boolean }> {
    const forgotten = await this.requireSignIn().forget()
    await this.reconnect()
    return forgotten
  }

  private requireSignIn(): ServerSignIn {
    if (this.signIn !== undefined) return this.signIn
    const why =
      this.config.transport === 'stdio'
        ? 'it is a stdio server; only remote servers sign in'
        : 'its settings turn sign-in off ("oauth": { "enabled": false })'
    throw new FerryError(ErrorCode.Conflict, `server "${this.name}" cannot sign in: ${why}`)
  }

  /** Why this server cannot take a call now, or undefined while it is ready. */
  notReadyError(): FerryError | undefined {
    if (this.status === 'ready' && this.client !== undefined) return undefined
    if (this.status === 'needs_login') {
      return new FerryError(
        ErrorCode.NeedsLogin,
        `server "${this.name}" needs a sign-in: ${this.error ?? `run \`ferry login ${this.name}\``}`,
      )
    }
    const why =
      this.error !== null
        ? `: ${this.error}`
        : this.lastFailure !== undefined
          ? ` after: ${this.lastFailure}`
          : ''
    return new FerryError(ErrorCode.ServerNotReady, `server "${this.name}" is ${this.status}${why}`)
  }

  private readyClient(): Client {
    const notReady = this.notReadyError()
    if (notReady !== undefined || this.client === undefined) throw notReady
    return this.client
  }

  /** The one way a status and its error leave for the log, the transcripts and the API. */
  private setStatus(status: ServerStatus, reason: string | null = null): void {
    // A server's stderr or a reason from elsewhere may name a URL with a secret in it.
    const error = reason === null ? null : redactUrls(reason)
    this.status = status
    this.error = error
    if (error !== null) this.lastFailure = error
    else if (status === 'ready') this.lastFailure = undefined
    this.deps.log({ kind: 'server.status', server: this.name, status, error })
    this.deps.onChange()
    this.deps.onStatus(this.name, status, error)
  }

  private async connect(): Promise<void> {
    if (this.closed) return
    this.setStatus('connecting')
    this.downReason = undefined
    // A check that cannot be made does not let anything start either.
    const lapsed = await this.recheck?.().catch(
      (error: unknown) => `what it runs could not be checked (${errorMessage(error)})`,
    )
    if (this.closed) return
    if (lapsed !== undefined) {
      // Nothing of what changed starts; the settings are loaded again, and it waits for approval.
      this.setStatus('awaiting_approval', lapsed)
      this.deps.onApprovalLapsed?.(this.name, lapsed)
      return
    }
    try {
      await this.negotiate()
      this.everReady = true
      this.readyAt = Date.now()
      this.setStatus('ready')
    } catch (error) {
      if (this.closed) return
      if (error instanceof SignInNeeded) return this.needsLogin(error.message)
      this.setStatus('failed', error instanceof FerryError ? error.message : errorMessage(error))
      // A server Ferry stopped signing in to waits for the person, not for a backoff.
      if (this.everReady && this.signIn?.stoppedAsking === undefined) this.scheduleRetry()
    }
  }

  /**
   * Connects as the plan says, with what is remembered of the server's era: a modern server's
   * `server/discover` result, or that a remote server did not answer the probe. A remembered verdict
   * that no longer holds is forgotten and the server probed afresh; a remote server whose probe met
   * legacy evidence is initialized as before, within what is left of the budget.
   */
  private async negotiate(): Promise<void> {
    const planned = planConnect(this.config, this.deps.probeCaps)
    const remote = this.config.transport !== 'stdio'
    const rememberedLegacy =
      planned.kind === 'auto' && remote && (await this.deps.priors.isLegacy(this.fingerprint))
    const plan: ConnectPlan = rememberedLegacy
      ? { kind: 'legacy', deadlineMs: planned.deadlineMs, reason: 'remembered' }
      : planned
    const prior = plan.kind === 'auto' ? await this.deps.priors.get(this.fingerprint) : undefined
    const started = Date.now()
    try {
      await this.attempt(plan, prior)
    } catch (error) {
      if (this.closed) throw error
      if (prior !== undefined || rememberedLegacy) {
        // A remembered verdict that no longer holds: forget it and probe afresh.
        this.deps.log({ kind: 'server.prior_rejected', server: this.name })
        await this.deps.priors.forget(this.fingerprint)
        return this.attempt(planned, undefined)
      }
      const evidence = plan.kind === 'auto' && remote ? legacyEvidence(error) : undefined
      if (evidence === undefined) throw error
      this.deps.log({ kind: 'server.era_fallback', server: this.name, evidence })
      await this.deps.priors.setLegacy(this.fingerprint)
      const deadlineMs = Math.max(plan.deadlineMs - (Date.now() - started), 1)
      await this.attempt({ kind: 'legacy', deadlineMs, reason: 'fallback' }, undefined)
    }
  }

  private async attempt(plan: ConnectPlan, prior: DiscoverResult | undefined): Promise<void> {
    const generation = ++this.generation
    this.serverProcess.reset()
    const client = new Client(this.deps.clientInfo, {
      // Servers may ask for input; Ferry routes each question to its call.
      capabilities: { ...clientCapabilities(), ...featureCapabilities(this.config) },
      versionNegotiation:
        plan.kind === 'auto'
          ? { mode: 'auto', probe: { timeoutMs: plan.probeTimeoutMs, maxRetries: 0 } }
          : { mode: 'legacy' },
      inputRequired: { autoFulfill: false },
    })
    this.elicitation.register(client)
    this.observer.attach(client)
    this.authChallenge = undefined
    this.last401 = undefined
    client.onerror = (error) => {
      if (generation !== this.generation) return
      this.serverProcess.onClientError(error)
      if (this.status === 'ready' && this.client !== undefined) this.recovery.check()
    }
    this.transport = this.config.transport
    let fellBackFrom: HttpFailure | undefined
    const transport: Transport = (this.deps.transport ?? createTransport)(this.config, {
      onStderr: (chunk) => this.stderr.push(chunk),
      negotiatedVersion: () => client.getNegotiatedProtocolVersion(),
      observe: this.observer.tap(() => client.getProtocolEra()),
      onSseFallback: (refused) => {
        this.transport = 'sse'
        fellBackFrom = refused
        this.deps.log({ kind: 'server.sse_fallback', server: this.name, status: refused.status })
      },
      onHttpResponse: (response) => {
        if (generation !== this.generation) return
        this.signIn?.noteResponse(response)
        if (response.status === 401) {
          const copy = response.clone()
          this.last401 = copy.text().then(
            (body) => ({ status: 401, statusText: copy.statusText, body }),
            () => ({ status: 401, statusText: copy.statusText, body: '' }),
          )
          this.authChallenge = response.headers.get('www-authenticate') ?? undefined
        }
      },
      ...(this.signIn === undefined ? {} : { authProvider: this.signIn.connectProvider() }),
      serverProcess: this.serverProcess,
    })
    this.pending = client
    let timedOut = false
    let deadline: NodeJS.Timeout | undefined
    // The deadline ends the attempt itself, not only its transport: once the transport is closed
    // under it, an SDK promise may never settle (a send waiting for a pipe that was ended to drain).
    const deadlinePassed = new Promise<never>((_, reject) => {
      deadline = setTimeout(() => {
        timedOut = true
        void transport.close()
        reject(new Error('deadline passed'))
      }, plan.deadlineMs)
    })
    try {
      const handshake = async () => {
        await client.connect(transport, {
          timeout: plan.deadlineMs,
          ...(prior === undefined ? {} : { prior: { kind: 'modern', discover: prior } }),
        })
        // The prior spared the probe's spawn, not a look at what the server is now: one that was
        // updated behind the same settings (a prompt added, an extension declared) would otherwise
        // keep its old capabilities, and lists it now offers would stay empty.
        if (prior !== undefined && !sameDiscover(prior, await rediscover(client))) {
          throw new Error('the server says other things of itself than it did when last connected')
        }
        // Only the tools listing gates readiness; prompts and resources fill in after.
        const listed = await listTools(client, 'use')
        await this.watchToolList(client, generation)
        return listed
      }
      const tools = await Promise.race([handshake(), deadlinePassed])
      clearTimeout(deadline)
      this.pending = undefined
      if (this.closed) throw new Error('connection closed while connecting')
      this.client = client
      await this.observer.connected(client, this.config.discoveryTimeoutMs)
      this.discovered = { tools, prompts: [], resources: [], resourceTemplates: [] }
      this.fillSideLists(client, generation, ['prompts', 'resources', 'resourceTemplates'], 'use')
      this.taskCalls = taskCallsOn(client.getProtocolEra(), client.getServerCapabilities())
      this.reportToolWarnings()
      this.era = client.getProtocolEra() ?? null
      this.protocolVersion = client.getNegotiatedProtocolVersion() ?? null
      client.onclose = () => void this.onClosed(generation)
      const discover = client.getDiscoverResult()
      if (plan.kind === 'auto' && this.era === 'modern' && discover !== undefined) {
        await this.deps.priors.set(this.fingerprint, discover)
      }
    } catch (error) {
      clearTimeout(deadline)
      this.pending = undefined
      this.observer.disconnected(client)
      await client.close().catch(() => {})
      let spawnFailure: SpawnFailure | undefined
      if (this.config.transport === 'stdio') {
        if (!timedOut) await this.serverProcess.ended()
        // The probe sibling's spawn is not followed; the SDK passes its failure on.
        spawnFailure =
          this.serverProcess.spawnFailure() ?? spawnFailureOf(error, this.config.command)
        if (spawnFailure !== undefined) {
          this.stderr.note(`ferry: cannot start "${spawnFailure.command}": ${spawnFailure.message}`)
        }
      }
      const signIn = await this.signInNeeded(error)
      if (signIn !== undefined) throw signIn
      const lastStderr = this.stderr.tail(1)[0]
      throw new FerryError(
        ErrorCode.UpstreamError,
        describeConnectFailure(error, {
          config: this.config,
          timedOut,
          processEnd: this.serverProcess.describeEnd(),
          spawnFailure,
          lastStderr,
          authChallenge: this.authChallenge,
          fellBackFrom,
        }),
        { cause: error },
      )
    }
  }

  /**
   * A failed attempt that a person's sign-in would fix, as the reason the server shows; a 401
   * that asks for other credentials than an OAuth token (Basic, say) as that HTTP failure.
   */
  private async signInNeeded(error: unknown): Promise<Error | undefined> {
    if (this.signIn === undefined) return undefined
    if (error instanceof InsufficientScopeError) return this.scopeRefusal(error)
    if (this.last401 === undefined) return undefined
    const scheme = /^\s*([A-Za-z-]+)/.exec(this.authChallenge ?? '')?.[1]?.toLowerCase()
    if (scheme !== undefined && scheme !== 'bearer' && scheme !== 'dpop') {
      const failure = describeHttpFailure(await this.last401)
      return new FerryError(
        ErrorCode.UpstreamError,
        `${failure}; check the credentials in "headers" for "${this.name}"`,
      )
    }
    if (error instanceof UnauthorizedError) return new SignInNeeded('the server asks for a sign-in')
    // A 401 whose sign-in could not even be prepared (no metadata found, say) still needs one;
    // the reason says what went wrong on the way.
    return new SignInNeeded(
      `the server asks for an OAuth sign-in, and preparing it failed (${errorMessage(error)})`,
    )
  }

  private async onClosed(generation: number): Promise<void> {
    if (generation !== this.generation || this.closed) return
    if (this.client !== undefined) this.observer.disconnected(this.client)
    this.client = undefined
    this.watch.detach()
    this.appChecks.reset()
    await this.serverProcess.ended()
    this.lost(`server ${this.serverProcess.describeEnd() ?? 'closed the connection'}`)
  }

  /** A ready connection went away: failed, and retried with the backoff. */
  private lost(why: string): void {
    this.stderr.note(`ferry: ${why}`)
    this.setStatus('failed', why)
    // A server that fails soon after each reconnect keeps backing off instead of looping.
    if (Date.now() - this.readyAt >= STABLE_AFTER_MS) this.backoffMs = BACKOFF_START_MS
    this.scheduleRetry()
  }

  private scheduleRetry(): void {
    if (this.closed) return
    const delay = this.backoffMs
    this.backoffMs = Math.min(this.backoffMs * 2, BACKOFF_CAP_MS)
    this.deps.log({ kind: 'server.retry', server: this.name, delayMs: delay })
    this.retryTimer = setTimeout(() => {
      this.restartCount++
      void this.connect()
    }, delay)
  }

  /**
   * One path for both eras: legacy servers send `notifications/tools/list_changed` (and the
   * prompts and resources ones) unprompted; modern ones only on the `subscriptions/listen` stream
   * `ChangeWatch` opens, whether or not the connect went through a probe (a remembered verdict
   * skips the SDK's own auto-open).
   */
  private async watchToolList(client: Client, generation: number): Promise<void> {
    client.setNotificationHandler('notifications/tools/list_changed', () =>
      this.onToolsChanged(generation),
    )
    for (const method of Object.keys(sideListsOf) as (keyof typeof sideListsOf)[]) {
      client.setNotificationHandler(method, () => {
        if (generation !== this.generation || this.status !== 'ready') return
        this.fillSideLists(client, generation, sideListsOf[method], 'refresh')
      })
    }
    await this.watch.attach(client)
  }

  /** Lists prompts and resources without holding up `ready`; a listing that fails keeps the last. */
  private fillSideLists(
    client: Client,
    generation: number,
    lists: readonly SideList[],
    mode: CacheMode,
  ): void {
    for (const list of lists) {
      const listed = listSide(client, list, mode, this.config.discoveryTimeoutMs).then(
        (items) => {
          if (!this.keepSideList(generation, list, items)) return
          this.deps.log({ kind: 'server.listed', server: this.name, list, count: items.length })
        },
        (error: unknown) => {
          if (generation !== this.generation) return
          const reason = errorMessage(error)
          this.deps.log({ kind: 'server.list_skipped', server: this.name, list, error: reason })
        },
      )
      // An App's CSP may come from its resources/list entry, so its check waits for the listing.
      const check = () => generation === this.generation && this.checkApps(client)
      if (list === 'resources') void listed.then(check, check)
    }
  }

  /** Keeps what `list` lists now, unless the connection moved past `generation` meanwhile. */
  private keepSideList(generation: number, list: SideList, items: Discovered[SideList]): boolean {
    if (generation !== this.generation) return false
    this.discovered = { ...this.discovered, [list]: items }
    this.deps.onChange()
    return true
  }

  private reportToolWarnings(): void {
    for (const tool of this.discovered.tools) {
      if (!isToolAllowed(this.config, tool.name)) continue
      for (const warning of readToolUi(tool).warnings) {
        if (this.warned.has(warning)) continue
        this.warned.add(warning)
        this.deps.log({ kind: 'server.tool_warning', server: this.name, warning })
        this.deps.onWarning(this.name, `server "${this.name}": ${warning}`)
      }
    }
  }

  private onToolsChanged(generation: number): void {
    if (generation !== this.generation || this.status !== 'ready') return
    this.refreshTools('refresh').catch((error: unknown) =>
      this.deps.log({ kind: 'server.list_failed', server: this.name, error: errorMessage(error) }),
    )
  }

  private async dropClient(): Promise<void> {
    const client = this.client
    this.client = undefined
    this.generation++
    if (client !== undefined) this.observer.disconnected(client)
    this.watch.detach()
    this.appChecks.reset()
    if (client !== undefined) await client.close().catch(() => {})
  }
}

/** An attempt refused until a person signs in; its message is the reason shown. */
class SignInNeeded extends Error {}
