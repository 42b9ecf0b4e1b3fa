// How a connection spends its discovery budget: whether to probe with `server/discover`, for how
// long, and what is left for the `initialize` fallback. Pure, so the arithmetic is tested alone.

import type { ServerConfig } from '../config/types.js'

/** The probe never waits longer than this, whatever the budget. */
export const PROBE_CAP_MS = 5000
/**
 * A remote server's probe is shorter: there is no process to start, and a server that ignores
 * `server/discover` (or holds the request open) costs this much before `initialize`.
 */
export const REMOTE_PROBE_CAP_MS = 2000
/**
 * The shortest probe worth sending. The probe timer includes the disposable sibling's start-up
 * (the server runtime); below this a healthy modern server is misjudged as legacy.
 * Chosen from `pnpm bench` measurements; see docs/internals.md.
 */
export const PROBE_FLOOR_MS = 1000

/** The longest a probe waits, by how the server is reached: a dependency, so a test can shorten it. */
export interface ProbeCaps {
  stdio: number
  remote: number
}

export const PROBE_CAPS: ProbeCaps = { stdio: PROBE_CAP_MS, remote: REMOTE_PROBE_CAP_MS }

export type ConnectPlan =
  | {
      kind: 'legacy'
      deadlineMs: number
      reason: 'configured' | 'budget' | 'remembered' | 'fallback'
    }
  | { kind: 'auto'; deadlineMs: number; probeTimeoutMs: number }

export function planConnect(config: ServerConfig, caps: ProbeCaps = PROBE_CAPS): ConnectPlan {
  const deadlineMs = config.discoveryTimeoutMs
  if (config.versionNegotiation === 'legacy') {
    return { kind: 'legacy', deadlineMs, reason: 'configured' }
  }
  // Half the budget at most goes to the probe: the other half covers the session process's spawn
  // (or a second connection) and `initialize` if the probe says legacy.
  const cap = config.transport === 'stdio' ? caps.stdio : caps.remote
  const probeTimeoutMs = Math.min(cap, Math.floor(deadlineMs / 2))
  if (probeTimeoutMs < PROBE_FLOOR_MS) return { kind: 'legacy', deadlineMs, reason: 'budget' }
  return { kind: 'auto', deadlineMs, probeTimeoutMs }
}
