// The set of live connections, keyed by (workspace, server name, config fingerprint). Applying
// new settings reconnects what changed and leaves everything else, caches included, alone.

import type { ServerConfig, ServerEntry, Settings } from '../config/types.js'
import type { ReloadResponse, ServerInfo } from '../protocol/index.js'
import { Connection, type ConnectionDeps } from './connection.js'

/** What every connection is given, and the workspace the pool's connections belong to. */
export interface PoolDeps extends ConnectionDeps {
  workspace: string
  subscriptions: NonNullable<ConnectionDeps['subscriptions']>
  onResourceUpdated: NonNullable<ConnectionDeps['onResourceUpdated']>
  onApprovalLapsed: NonNullable<ConnectionDeps['onApprovalLapsed']>
}

export type ApplyResult = Omit<ReloadResponse, 'warnings'>

type Placeholder = Extract<ServerEntry, { state: 'disabled' | 'invalid' | 'awaiting_approval' }>

function poolKey(workspace: string, name: string, fingerprint: string): string {
  return JSON.stringify([workspace, name, fingerprint])
}

export class Pool {
  private readonly connections = new Map<string, Connection>()
  private entries: ServerEntry[] = []

  constructor(private readonly deps: PoolDeps) {}

  /** Reconciles with `settings`; resolves once every new connection's first attempt settled. */
  async apply(settings: Settings): Promise<ApplyResult> {
    const previous = new Map(this.entries.map((entry) => [entry.name, entry]))
    const wanted = new Map<string, Extract<ServerEntry, { state: 'enabled' }>>()
    for (const entry of settings.servers) {
      if (entry.state === 'enabled') {
        wanted.set(poolKey(this.deps.workspace, entry.name, entry.fingerprint), entry)
      }
    }
    const closing: Promise<void>[] = []
    for (const [key, connection] of this.connections) {
      // One whose approval lapsed never starts again: a new approval makes a new connection.
      if (wanted.has(key) && connection.status !== 'awaiting_approval') continue
      this.connections.delete(key)
      closing.push(connection.close())
    }
    const starting: Promise<void>[] = []
    for (const [key, entry] of wanted) {
      const existing = this.connections.get(key)
      if (existing !== undefined) {
        existing.reconfigure(entry.config)
        continue
      }
      const connection = new Connection(
        entry.config,
        entry.fingerprint,
        this.connectionDeps(),
        entry.approval?.recheck,
      )
      this.connections.set(key, connection)
      starting.push(connection.start())
    }
    this.entries = settings.servers
    this.deps.onChange()
    await Promise.all([...closing, ...starting])
    return classify(previous, settings.servers)
  }

  get(name: string): Connection | undefined {
    for (const connection of this.connections.values()) {
      if (connection.name === name) return connection
    }
    return undefined
  }

  /** Ready and not-ready connections, in settings order. */
  all(): Connection[] {
    return this.entries.flatMap((entry) => {
      const connection = entry.state === 'enabled' ? this.get(entry.name) : undefined
      return connection === undefined ? [] : [connection]
    })
  }

  servers(toolCount: (connection: Connection) => number): ServerInfo[] {
    return this.entries.map((entry) => {
      const connection = entry.state === 'enabled' ? this.get(entry.name) : undefined
      if (connection === undefined) return placeholderInfo(entry as Placeholder)
      return {
        name: connection.name,
        transport: connection.transport,
        status: connection.status,
        era: connection.era,
        protocolVersion: connection.protocolVersion,
        negotiation: connection.config.versionNegotiation,
        toolCount: connection.status === 'ready' ? toolCount(connection) : 0,
        error: connection.error,
        restartCount: connection.restartCount,
        approval: null,
        roots: rootsShown(connection.config.roots),
        hiddenTools: [],
        undeclared: connection.status === 'ready' ? connection.undeclared() : [],
      }
    })
  }

  async closeAll(): Promise<void> {
    const all = [...this.connections.values()]
    this.connections.clear()
    await Promise.all(all.map((connection) => connection.close()))
    this.deps.reaper.close()
  }

  private connectionDeps(): ConnectionDeps {
    const { workspace: _workspace, ...deps } = this.deps
    return deps
  }
}

function sameConnection(before: ServerEntry, after: ServerEntry): boolean {
  if (before.state !== after.state) return false
  return before.state !== 'enabled' || before.fingerprint === (after as typeof before).fingerprint
}

function classify(previous: Map<string, ServerEntry>, next: ServerEntry[]): ApplyResult {
  const result: ApplyResult = {
    added: [],
    reconnected: [],
    stopped: [],
    unchanged: [],
    removed: [],
  }
  const names = new Set(next.map((entry) => entry.name))
  for (const entry of next) {
    const before = previous.get(entry.name)
    if (before === undefined) result.added.push(entry.name)
    else if (sameConnection(before, entry)) result.unchanged.push(entry.name)
    else if (entry.state === 'enabled') result.reconnected.push(entry.name)
    else result.stopped.push(entry.name)
  }
  result.removed = [...previous.keys()].filter((name) => !names.has(name))
  return result
}

function placeholderInfo(entry: Placeholder): ServerInfo {
  return {
    name: entry.name,
    transport: entry.transport,
    status: entry.state,
    era: null,
    protocolVersion: null,
    negotiation: 'legacy',
    toolCount: 0,
    error:
      entry.state === 'invalid'
        ? entry.error
        : entry.state === 'disabled'
          ? entry.reason
          : entry.message,
    restartCount: 0,
    approval: entry.state === 'awaiting_approval' ? entry.description : null,
    roots: null,
    hiddenTools: [],
    undeclared: [],
  }
}

/** The roots `GET /api/servers` shows: null when none are declared, "client" as it is. */
function rootsShown(roots: ServerConfig['roots']): ServerInfo['roots'] {
  return roots === false ? null : roots
}
