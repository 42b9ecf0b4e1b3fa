// Which waiting workspace entries a request approves: each named one, only while it is still the
// entry that was shown (its digest unchanged); and which entries began to wait again at a reload.

import type { Settings } from '../config/types.js'
import { ErrorCode, FerryError } from '../errors.js'
import type {
  WorkspaceApproveRequest,
  WorkspaceEntry,
  WorkspaceResponse,
} from '../protocol/index.js'

/**
 * The entries of the workspace file that wait, as described when `settings` were loaded: every one,
 * or those `names` asks for, in that order; a name that does not wait is an error.
 */
export function waitingEntries(
  settings: Settings,
  names: readonly string[] = [],
): WorkspaceResponse {
  const waiting = new Map(
    settings.servers.flatMap((entry) =>
      entry.state === 'awaiting_approval' ? [[entry.name, entry.description] as const] : [],
    ),
  )
  const chosen = names.length === 0 ? [...waiting.keys()] : [...new Set(names)]
  return {
    file: settings.workspaceFile,
    waiting: chosen.map((name) => {
      const entry = waiting.get(name)
      if (entry === undefined) throw notWaiting(settings, name)
      return entry
    }),
  }
}

/**
 * The descriptions `request` approves, in the order asked. A name that is not in the settings or does
 * not wait is an error; so is any digest that no longer matches, naming every entry that changed.
 * Either way nothing is approved.
 */
export function pickAsShown(
  settings: Settings,
  request: WorkspaceApproveRequest['entries'],
): WorkspaceEntry[] {
  const waiting = new Map(
    settings.servers.flatMap((entry) =>
      entry.state === 'awaiting_approval' ? [[entry.name, entry] as const] : [],
    ),
  )
  const picked = new Map<string, WorkspaceEntry>()
  const changed: string[] = []
  for (const { name, digest } of request) {
    const entry = waiting.get(name)
    if (entry === undefined) throw notWaiting(settings, name)
    if (entry.description.digest !== digest) changed.push(name)
    else picked.set(name, entry.description)
  }
  if (changed.length > 0) {
    const names = [...new Set(changed)]
    const [it, was, waits] = names.length === 1 ? ['it', 'was', 'waits'] : ['they', 'were', 'wait']
    throw new FerryError(
      ErrorCode.ApprovalChanged,
      `nothing was approved: ${names.map((name) => `"${name}"`).join(', ')} changed since ${it} ${was} ` +
        `shown (the entry, or a workspace file it runs); ${it} still ${waits}: run \`ferry workspace\` to review again`,
    )
  }
  return [...picked.values()]
}

function notWaiting(settings: Settings, name: string): FerryError {
  const entry = settings.servers.find((candidate) => candidate.name === name)
  if (entry === undefined) {
    return new FerryError(
      ErrorCode.NotFound,
      `no server named "${name}" in the settings; run \`ferry workspace\` to list what waits for approval`,
    )
  }
  return new FerryError(
    ErrorCode.Conflict,
    `server "${name}" does not wait for approval (it is ${entry.state})`,
  )
}

/** Entries that ran, or could, before `next` and wait for approval again in it, with why. */
export function approvalsLapsed(before: Settings, next: Settings): { name: string; why: string }[] {
  const was = new Map(before.servers.map((entry) => [entry.name, entry.state]))
  return next.servers.flatMap((entry) => {
    if (entry.state !== 'awaiting_approval' || entry.description.lapsed === null) return []
    const state = was.get(entry.name)
    if (state === undefined || state === 'awaiting_approval') return []
    return [{ name: entry.name, why: entry.description.lapsed }]
  })
}
