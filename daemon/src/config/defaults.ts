// Default and limit values for server settings, shared by the loader and the demo fallback.

import type { GatewaySettings } from './types.js'

export const DEFAULT_TOOL_TIMEOUT_MS = 600_000
export const DEFAULT_STDIO_DISCOVERY_MS = 30_000
export const DEFAULT_REMOTE_DISCOVERY_MS = 5_000
export const MIN_DISCOVERY_MS = 100
export const MAX_DISCOVERY_MS = 300_000
/** How long reading a tool's App resource after a call may take before the App is given up. */
export const DEFAULT_APP_RESOURCE_TIMEOUT_MS = 5_000

/** MCP log messages at this level and above are asked for and kept, unless `logLevel` says otherwise. */
export const DEFAULT_LOG_LEVEL = 'info'

/** The gateway (`/mcp`) unless the user's settings say otherwise. */
export const DEFAULT_GATEWAY = {
  enabled: true,
  phase: 1 as const,
  /** A legacy session unused this long ends; its client gets 404 and initialises again. */
  sessionIdleMs: 30 * 60_000,
  /** Legacy sessions open at once; the one idle longest ends to make room. */
  maxSessions: 100,
  /** A call of a client that declares Tasks answers with a task once it has run this long. */
  taskAfterMs: 1_000,
  /** Clients list every tool; with it, a search tool and the pinned ones. */
  toolSearch: false,
  pinnedTools: [] as string[],
} satisfies GatewaySettings
