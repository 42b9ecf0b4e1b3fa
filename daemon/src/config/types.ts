// The validated, expanded shape of Ferry's settings: what the rest of the daemon consumes.

import type { LogLevel } from '../protocol/observe.js'
import type { WorkspaceEntry } from '../protocol/workspace.js'

export type TransportKind = 'stdio' | 'streamable-http' | 'sse'
export type VersionNegotiation = 'legacy' | 'auto'

interface BaseServerConfig {
  name: string
  /** Tool-call timeout in ms (reset by progress). */
  timeout: number
  /** Connect + discovery budget in ms, already clamped to [100, 300000]. */
  discoveryTimeoutMs: number
  /** Limit in ms for reading a tool's App resource after a call. */
  appResourceTimeoutMs: number
  versionNegotiation: VersionNegotiation
  /** The least severe MCP log message the server is asked for and Ferry keeps. */
  logLevel: LogLevel
  trust: boolean
  includeTools: string[] | undefined
  excludeTools: string[] | undefined
  /**
   * The directories the server is told of as its roots (absolute paths; the workspace unless the
   * settings list others), false when roots are not declared to it at all, or `client`: those of
   * the gateway client whose call asks (none for any other caller).
   */
  roots: string[] | false | 'client'
}

export interface StdioServerConfig extends BaseServerConfig {
  transport: 'stdio'
  command: string
  args: string[]
  env: Record<string, string>
  cwd: string | undefined
}

export interface RemoteServerConfig extends BaseServerConfig {
  transport: 'streamable-http' | 'sse'
  url: string
  headers: Record<string, string>
  /**
   * A bare `url`: Streamable HTTP, then SSE if the server answers the first POST with a 4xx (the
   * MCP spec's backwards-compatibility rule). Always false for SSE.
   */
  sseFallback: boolean
  oauth: OAuthSettings
}

/** The `oauth` block of a remote server, expanded; every key but `enabled` optional. */
export interface OAuthSettings {
  /** False: a 401 is a plain failure and Ferry never signs in. */
  enabled: boolean
  /** Pre-registered client credentials: used as given, no registration. */
  clientId: string | undefined
  clientSecret: string | undefined
  /** Scopes always asked for, beside what the server asks. */
  scopes: string[]
  /** Where the authorization server sends the browser back; the daemon's own callback by default. */
  redirectUri: string | undefined
  /** Endpoints given in settings, used instead of the authorization server's metadata. */
  authorizationUrl: string | undefined
  tokenUrl: string | undefined
  /** An HTTPS client ID metadata document, used as the client ID where the server supports it. */
  clientMetadataUrl: string | undefined
}

export type ServerConfig = StdioServerConfig | RemoteServerConfig

/** One entry of `mcpServers` after validation and the global allow/exclude lists. */
export type ServerEntry =
  | {
      name: string
      state: 'enabled'
      config: ServerConfig
      /** Hash of the fields that shape the connection (not timeout, trust or tool filters). */
      fingerprint: string
      /** Set for an approved workspace entry: checked again before each start of its process. */
      approval?: WorkspaceApproval
    }
  | { name: string; state: 'disabled'; transport: TransportKind | null; reason: string }
  | { name: string; state: 'invalid'; transport: TransportKind | null; error: string }
  | {
      name: string
      state: 'awaiting_approval'
      transport: TransportKind | null
      /** The workspace file that defines the entry. */
      file: string
      /** The user file whose entry of the same name it replaces, if any. */
      overrides: string | undefined
      /** The entry as it would run, with the digest an approval names. */
      description: WorkspaceEntry
      message: string
    }

/** What an approved workspace entry was approved as, and how to tell whether that still holds. */
export interface WorkspaceApproval {
  digest: string
  /** Why the approval no longer holds (a file it runs changed); undefined while it does. */
  recheck: () => Promise<string | undefined>
}

/** A settings file that was read, but from which no server could be taken. */
export interface FileWithoutServers {
  file: string
  reason: string
}

/** The `gateway` block: how Ferry serves its servers to MCP clients on `/mcp`. */
export interface GatewaySettings {
  enabled: boolean
  /** 1: both eras, legacy sessions; 2: both eras, session-less legacy served statelessly; 3: 2026-07-28 only. */
  phase: 1 | 2 | 3
  sessionIdleMs: number
  maxSessions: number
  taskAfterMs: number
  /** Every client gets the search tool instead of the full tool list (a token can ask for it too). */
  toolSearch: boolean
  /** Globs over qualified tool names listed beside the search tool. */
  pinnedTools: string[]
}

export interface Settings {
  /** Files that were read, in precedence order (later wins). Empty when the demo default applies. */
  files: string[]
  servers: ServerEntry[]
  /** Non-fatal findings (unknown keys, clamped values), each naming its path. */
  warnings: string[]
  /** True when no settings file existed and the bundled demo server was configured. */
  usingDemo: boolean
  /** The workspace file (`<cwd>/.ferry/settings.json`) whose entries need the person's approval. */
  workspaceFile: string
  filesWithoutServers: FileWithoutServers[]
  gateway: GatewaySettings
}
