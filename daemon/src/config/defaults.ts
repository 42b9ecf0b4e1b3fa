// Default and limit values for server settings, shared by the loader and the demo fallback.

export const DEFAULT_TOOL_TIMEOUT_MS = 600_000
export const DEFAULT_STDIO_DISCOVERY_MS = 30_000
export const DEFAULT_REMOTE_DISCOVERY_MS = 5_000
export const MIN_DISCOVERY_MS = 100
export const MAX_DISCOVERY_MS = 300_000
