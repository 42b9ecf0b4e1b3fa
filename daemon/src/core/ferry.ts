// The catalog: settings → pool of connections → tool registry, with its parts (offerings, resource
// follows, App display, sign-in). Clients reach it through service/ferry-service.ts.

import type { CallToolResult } from '@modelcontextprotocol/client'
import { resolve } from 'node:path'
import { ApprovalStore, loadSettings, type LoadOptions } from '../config/index.js'
import type { ServerConfig, Settings } from '../config/types.js'
import { ErrorCode, FerryError } from '../errors.js'
import type { Log } from '../log.js'
import type { CallOptions, Connection } from '../mcp/connection.js'
import { Pool } from '../mcp/pool.js'
import { SignIns } from '../mcp/oauth/sign-ins.js'
import { SignInService } from './sign-in-service.js'
import { ServerReaper } from '../mcp/server-reaper.js'
import { PriorStore } from '../mcp/prior-store.js'
import { ServerObservers, type McpLogLine, type ServerObserver } from '../mcp/server-observer.js'
import type {
  ReloadResponse,
  ServerInfo,
  ServerStatus,
  ToolInfo,
  WorkspaceApproveRequest,
  WorkspaceApproveResponse,
  WorkspaceEntry,
  WorkspaceResponse,
} from '../protocol/index.js'
import type { ServerOfferings } from './offerings.js'
import { AppDisplay } from './app-display.js'
import { ResourceFollows } from './resource-follows.js'
import { SettingsHealth } from './settings-health.js'
import { Offerings } from './server-offerings.js'
import { approvalsLapsed, pickAsShown, waitingEntries } from './workspace-approval.js'
import {
  buildRegistry,
  hiddenTools,
  isModelVisible,
  toToolInfo,
  type RegistryEntry,
} from '../tools/registry.js'
import { plainQualifiedName } from '../tools/qualified-names.js'
import { didYouMean, suggestTools } from '../tools/tool-suggestions.js'
import type { Discovered, SideList } from '../mcp/discovery.js'
import type { TransportFactory } from '../mcp/transports.js'
import type { ProbeCaps } from '../mcp/connect-plan.js'

export type StatusListener = (server: string, status: ServerStatus, error: string | null) => void
export type NoticeListener = (level: 'info' | 'warning' | 'error', message: string) => void
/** `openCalls`: how many calls of that server were open on the wire when the message came. */
export type ServerLogListener = (server: string, line: McpLogLine, openCalls: number) => void

export type { ServerOfferings }

export interface FerryOptions {
  load: LoadOptions
  stateDir: string
  version: string
  log: Log
  /** Makes each connection's transport; the one the settings name unless a test supplies its own. */
  transport?: TransportFactory | undefined
  /** How long a probe may wait; PROBE_CAPS unless a test shortens it. */
  probeCaps?: ProbeCaps | undefined
}

export class Ferry {
  settings: Settings
  /** OAuth sign-in to remote servers: login, logout, and the browser's callback. */
  readonly signIn: SignInService
  /** Where sign-ins are recorded; the daemon gives it its callback URL once it listens. */
  readonly signIns: SignIns
  /** The resources followed on each server, over all sessions, and their updates. */
  readonly follows: ResourceFollows
  /** How a finished call shows: its MCP App, or plain and why. */
  readonly apps: AppDisplay
  /** Ready servers' prompts, resources and templates, and the gets, reads and completions. */
  readonly offerings: Offerings
  /** Whether the last reload could read the settings, and what was wrong when it could not. */
  readonly settingsHealth: SettingsHealth
  private readonly pool: Pool
  private registryCache: RegistryEntry[] | undefined
  private readonly statusListeners = new Set<StatusListener>()
  private readonly noticeListeners = new Set<NoticeListener>()
  private readonly changeListeners = new Set<() => void>()
  private readonly logListeners = new Set<ServerLogListener>()
  private readonly observers: ServerObservers
  /** Approvals are read, changed and written one at a time. */
  private approving: Promise<unknown> = Promise.resolve()

  private constructor(
    private readonly options: FerryOptions,
    private readonly approvals: ApprovalStore,
    settings: Settings,
  ) {
    this.settings = settings
    this.settingsHealth = new SettingsHealth(options.log)
    this.observers = new ServerObservers((server, line, openCalls) => {
      for (const listener of this.logListeners) listener(server, line, openCalls)
    }, options.log)
    this.signIns = new SignIns({
      stateDir: options.stateDir,
      clientName: 'Ferry',
      log: options.log,
    })
    this.signIn = new SignInService(this.signIns, (name) => this.connection(name), options.log)
    this.offerings = new Offerings(
      () => this.pool.all(),
      (name) => this.connection(name),
      (name, listed) => this.throwIfServerDown(name, listed),
    )
    this.follows = new ResourceFollows(
      (name) => this.connection(name),
      (name) => this.pool.get(name),
    )
    this.apps = new AppDisplay(
      (name) => this.connection(name),
      (name) => this.pool.get(name),
      (name) => this.serverConfig(name),
      options.log,
    )
    this.pool = new Pool({
      workspace: options.load.cwd,
      transport: options.transport,
      probeCaps: options.probeCaps,
      signIns: this.signIns,
      clientInfo: { name: 'ferry', version: options.version },
      priors: new PriorStore(`${options.stateDir}/discovery`),
      reaper: new ServerReaper((error) =>
        options.log({ kind: 'daemon.server_guard_failed', error: error.message }),
      ),
      log: options.log,
      onChange: () => {
        this.registryCache = undefined
        for (const listener of this.changeListeners) listener()
      },
      onStatus: (server, status, error) => {
        for (const listener of this.statusListeners) listener(server, status, error)
      },
      onWarning: (_server, message) => this.notice('warning', message),
      observer: (server, level) => this.observers.for(server, level),
      subscriptions: (server) => this.follows.uris(server),
      onResourceUpdated: (server, uri) => {
        this.follows.updated(server, uri)
      },
      onApprovalLapsed: (server, reason) => {
        options.log({ kind: 'workspace.approval_lapsed', server, reason })
        // The reload makes the entry wait, visibly, and says why in every transcript; one that
        // fails is logged and told by the reload itself.
        this.oneAtATime(() => this.reload()).catch(() => {})
      },
    })
  }

  /** Loads settings (throwing on a file that cannot be parsed) and starts connecting. */
  static async create(options: FerryOptions): Promise<Ferry> {
    const approvals = new ApprovalStore(options.stateDir)
    const settings = await loadWithApprovals(options.load, approvals)
    for (const warning of settings.warnings) options.log({ kind: 'settings.warning', warning })
    return new Ferry(options, approvals, settings)
  }

  /** The absolute workspace path approvals are stored under. */
  get workspace(): string {
    return resolve(this.options.load.cwd)
  }

  /** Connects every enabled server; resolves when each first attempt has settled. */
  connectAll(): Promise<unknown> {
    return this.pool.apply(this.settings)
  }

  /**
   * The workspace file's waiting entries (all, or those named) as written now, read afresh; nothing
   * is applied.
   */
  async workspaceEntries(names: readonly string[] = []): Promise<WorkspaceResponse> {
    return waitingEntries(await loadWithApprovals(this.options.load, this.approvals), names)
  }

  /**
   * Approves waiting workspace entries, each only if it is still described by the digest that was
   * shown, stores the approvals and applies the settings. When any named entry does not wait or
   * has changed, nothing is approved; a change is applied first, so every surface shows the entry
   * as it is now.
   */
  approveWorkspace(request: WorkspaceApproveRequest['entries']): Promise<WorkspaceApproveResponse> {
    return this.oneAtATime(async () => {
      const current = await loadWithApprovals(this.options.load, this.approvals)
      let chosen: WorkspaceEntry[]
      try {
        chosen = pickAsShown(current, request)
      } catch (error) {
        if (error instanceof FerryError && error.code === ErrorCode.ApprovalChanged) {
          await this.reload()
        }
        throw error
      }
      await this.approvals.approve(this.workspace, chosen)
      const approved = chosen.map((entry) => entry.name)
      this.options.log({
        kind: 'workspace.approved',
        file: current.workspaceFile,
        servers: approved,
        digests: chosen.map((entry) => entry.digest),
      })
      return { file: current.workspaceFile, approved, reload: await this.reload() }
    })
  }

  /**
   * Reads the settings again and applies them. Settings that cannot be read change nothing: the
   * problem is logged, told to every transcript of the workspace and kept in the status until a
   * reload reads them, and the error is thrown for the caller.
   */
  async reload(): Promise<ReloadResponse> {
    let settings: Settings
    try {
      settings = await loadWithApprovals(this.options.load, this.approvals)
    } catch (error) {
      this.settingsHealth.failed(error)
      throw error
    }
    this.settingsHealth.read()
    const lapsed = approvalsLapsed(this.settings, settings)
    this.settings = settings
    const result = await this.pool.apply(settings)
    this.options.log({ kind: 'settings.reloaded', ...result })
    const changes = (['added', 'reconnected', 'stopped', 'removed'] as const)
      .filter((key) => result[key].length > 0)
      .map((key) => `${key} ${result[key].join(', ')}`)
    this.notice(
      'info',
      `settings reloaded${changes.length > 0 ? `: ${changes.join('; ')}` : ', nothing changed'}`,
    )
    for (const { name, why } of lapsed) {
      this.notice(
        'warning',
        `server "${name}" waits for your approval again: ${why}; review it with \`ferry workspace\``,
      )
    }
    for (const warning of settings.warnings) this.notice('warning', warning)
    return { ...result, warnings: settings.warnings }
  }

  /** Approvals are read, changed and written, and lapses applied, one at a time. */
  private oneAtATime<T>(work: () => Promise<T>): Promise<T> {
    const run = this.approving.then(work)
    this.approving = run.catch(() => {})
    return run
  }

  servers(): ServerInfo[] {
    const counts = new Map<string, number>()
    for (const entry of this.registry().filter(isModelVisible))
      counts.set(entry.server, (counts.get(entry.server) ?? 0) + 1)
    return this.pool
      .servers((connection) => counts.get(connection.name) ?? 0)
      .map((info) => {
        const connection = info.status === 'ready' ? this.pool.get(info.name) : undefined
        if (connection === undefined) return info
        const entries = this.registry().filter((entry) => entry.server === info.name)
        const listed = connection.discovered.tools
        return { ...info, hiddenTools: hiddenTools(connection.config, listed, entries) }
      })
  }

  registry(): RegistryEntry[] {
    this.registryCache ??= buildRegistry(
      this.pool
        .all()
        .filter((connection) => connection.status === 'ready')
        .map((connection) => ({
          config: connection.config,
          fingerprint: connection.fingerprint,
          tools: connection.discovered.tools,
          appNotShown: (uri: string) => connection.appChecks.reasonFor(uri),
          taskBlocker: connection.taskCalls.blocker,
          serverTasks: connection.taskCalls.serverTasks,
        })),
    )
    return this.registryCache
  }

  /** The tools models and the CLI may call; app-only tools stay out. */
  tools(server?: string): ToolInfo[] {
    if (server !== undefined) this.connection(server)
    return this.registry()
      .filter((entry) => (server === undefined || entry.server === server) && isModelVisible(entry))
      .map(toToolInfo)
  }

  /** Lists again through each ready client, so the SDK's response cache decides what reaches the wire. */
  async refreshTools(server?: string): Promise<void> {
    const targets = server === undefined ? this.pool.all() : [this.connection(server)]
    await Promise.all(
      targets
        .filter((connection) => connection.status === 'ready')
        .map((connection) => connection.refreshTools('use')),
    )
  }

  /**
   * The registry entry of a qualified tool name that models and the CLI may call, or an error that
   * says what to do: ToolNotFound, or Forbidden for a tool only its MCP App may call.
   */
  lookup(qualifiedName: string): RegistryEntry {
    const entry = this.registry().find((candidate) => candidate.name === qualifiedName)
    if (entry === undefined) {
      // A tool of a server that is down: say why it cannot be called, not that it does not exist.
      this.throwIfServerDown(qualifiedName, (offered) => offered.tools)
      // A server that never connected has listed nothing yet: one waiting for a sign-in, or still
      // connecting (a call made right after `ferry start`), says so.
      for (const connection of this.pool.all()) {
        const prefix = plainQualifiedName({ server: connection.name, tool: '' })
        if (!qualifiedName.startsWith(prefix)) continue
        if (connection.status === 'needs_login') throw connection.notReadyError()
        if (connection.status === 'connecting') {
          throw new FerryError(
            ErrorCode.ServerNotReady,
            `server "${connection.name}" is still connecting and has listed no tools yet; call again once \`ferry servers\` shows it ready`,
          )
        }
      }
      const meant = suggestTools(qualifiedName, this.registry().filter(isModelVisible))
      throw new FerryError(
        ErrorCode.ToolNotFound,
        `no tool named "${qualifiedName}"${didYouMean(meant)}; run \`ferry tools\` to see the qualified names`,
      )
    }
    if (!isModelVisible(entry)) {
      throw new FerryError(
        ErrorCode.Forbidden,
        `${qualifiedName} is for its MCP App only (visibility ${JSON.stringify(entry.visibility)}); models and the CLI cannot call it`,
      )
    }
    return entry
  }

  /**
   * The entry of a tool an MCP App of `server` may call, by the server's own tool name: a tool of
   * that server whose visibility includes `app` (app-only tools too), or an error the App can show.
   */
  lookupForApp(server: string, tool: string): RegistryEntry {
    const entry = this.registry().find((c) => c.server === server && c.tool === tool)
    if (entry === undefined) {
      const notReady = this.connection(server).notReadyError()
      if (notReady !== undefined) throw notReady
      throw new FerryError(
        ErrorCode.ToolNotFound,
        `server "${server}" has no tool "${tool}"; an App may call only its own server's tools`,
      )
    }
    if (!entry.visibility.includes('app')) {
      throw new FerryError(
        ErrorCode.Forbidden,
        `tool "${tool}" is not visible to Apps (visibility ${JSON.stringify(entry.visibility)})`,
      )
    }
    return entry
  }

  /**
   * Runs a tool on its server. Sessions call this; everything else goes through a session. A server
   * reconnected with other settings since `entry` was looked up is not called: it is another program.
   */
  async call(
    entry: RegistryEntry,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<CallToolResult> {
    const connection = this.connection(entry.server)
    if (connection.fingerprint !== entry.serverFingerprint) {
      throw new FerryError(
        ErrorCode.Conflict,
        `server "${entry.server}" reconnected with changed settings since ${entry.name} was looked up; it was not called, call it again`,
      )
    }
    return connection.callTool(entry.tool, args, options)
  }

  /** Lists `list` of `server` again on the wire; what it lists now (see Connection.relist). */
  relist(server: string, list: 'tools' | SideList): Promise<Discovered[typeof list]> {
    return this.connection(server).relist(list)
  }

  /** Pings `server`, within its timeout. */
  ping(server: string): Promise<void> {
    return this.connection(server).ping()
  }

  /** The settings of an enabled server, if there is one by that name. */
  serverConfig(server: string): ServerConfig | undefined {
    return this.pool.get(server)?.config
  }

  /** Called with things worth telling everyone attached (reloads, settings warnings). */
  onNotice(listener: NoticeListener): void {
    this.noticeListeners.add(listener)
  }

  private notice(level: 'info' | 'warning' | 'error', message: string): void {
    for (const listener of this.noticeListeners) listener(level, message)
  }

  /** Called whenever what servers offer may have changed (tools, prompts, resources, status). */
  onRegistryChange(listener: () => void): void {
    this.changeListeners.add(listener)
  }

  /** Called on every server status change, for the session transcripts. */
  onServerStatus(listener: StatusListener): void {
    this.statusListeners.add(listener)
  }

  async reconnect(server: string): Promise<void> {
    await this.connection(server).reconnect()
  }

  logs(server: string): string[] {
    return this.connection(server).stderr.tail()
  }

  /**
   * A server's trace, log level and log lines: those of its connection, or what was seen before
   * it stopped (disabled or invalid now); a server never connected has none.
   */
  observer(server: string): ServerObserver {
    const connection = this.pool.get(server)
    if (connection !== undefined) return connection.observer
    const seen = this.observers.get(server)
    if (seen !== undefined && this.settings.servers.some((entry) => entry.name === server)) {
      return seen
    }
    return this.connection(server).observer
  }

  /** Called with each MCP log message a server sends at or above its level. */
  onServerLog(listener: ServerLogListener): void {
    this.logListeners.add(listener)
  }

  close(): Promise<void> {
    return this.pool.closeAll()
  }

  /** A name its server listed before it went down: why it cannot be used now, thrown. */
  private throwIfServerDown(
    qualifiedName: string,
    listed: (offered: Discovered) => readonly { name: string }[],
  ): void {
    for (const connection of this.pool.all()) {
      const known = listed(connection.discovered).some(
        (item) =>
          plainQualifiedName({ server: connection.name, tool: item.name }) === qualifiedName,
      )
      const notReady = known ? connection.notReadyError() : undefined
      if (notReady !== undefined) throw notReady
    }
  }

  private connection(name: string): Connection {
    const connection = this.pool.get(name)
    if (connection !== undefined) return connection
    const entry = this.settings.servers.find((candidate) => candidate.name === name)
    if (entry === undefined) throw new FerryError(ErrorCode.NotFound, `no server named "${name}"`)
    const why =
      entry.state === 'invalid'
        ? entry.error
        : entry.state === 'disabled'
          ? entry.reason
          : entry.state === 'awaiting_approval'
            ? entry.message
            : ''
    throw new FerryError(ErrorCode.ServerNotReady, `server "${name}" is ${entry.state}: ${why}`)
  }
}

async function loadWithApprovals(load: LoadOptions, store: ApprovalStore): Promise<Settings> {
  return loadSettings({ ...load, approvals: await store.forWorkspace(resolve(load.cwd)) })
}
