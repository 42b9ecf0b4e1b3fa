// Which messages of a protocol trace may be sent again, and why the others may not: the one rule
// the daemon applies and the WebShell shows. Holds no schemas, so the WebShell can import it.

import type { TraceEntry } from './observe.js'

/** The requests Ferry replays, each through the operation any client's request of it takes. */
export const REPLAYABLE_METHODS = [
  'tools/call',
  'resources/read',
  'prompts/get',
  'completion/complete',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'ping',
] as const
export type ReplayableMethod = (typeof REPLAYABLE_METHODS)[number]

export function isReplayable(method: string | null): method is ReplayableMethod {
  return (REPLAYABLE_METHODS as readonly (string | null)[]).includes(method)
}

/** Why a traced message cannot be replayed, or null when it can. */
export function replayRefusal(
  entry: Pick<TraceEntry, 'direction' | 'kind' | 'method'>,
): string | null {
  const method = entry.method ?? '(no method)'
  if (entry.kind === 'response' || entry.kind === 'error') {
    return `this message answers ${method}; replay the request it answers instead`
  }
  if (entry.kind === 'notification') {
    return `${method} is a notification; only requests Ferry sent can be replayed`
  }
  if (entry.direction === 'in') {
    return `${method} is a request the server sent to Ferry; only requests Ferry sent to the server can be replayed`
  }
  if (entry.method === 'initialize') {
    return 'initialize opens a connection and cannot be replayed; reconnect the server to start a new one'
  }
  if (!isReplayable(entry.method)) {
    return `${method} cannot be replayed; Ferry replays ${REPLAYABLE_METHODS.join(', ')}`
  }
  return null
}
