// ferry workspace [approve [<server>[@<digest>]…]]: show the workspace's servers that wait for
// approval as they would run, and approve exactly what was shown, by its digest.

import { ErrorCode, FerryError } from '../errors.js'
import {
  DIGEST_PATTERN,
  type WorkspaceApproveRequest,
  type WorkspaceApproveResponse,
  type WorkspaceEntry,
  type WorkspaceResponse,
} from '../protocol/index.js'
import { canPrompt, promptYesNo } from './confirm-prompt.js'
import type { CliContext } from './context.js'
import { connectDaemon, type DaemonClient } from './daemon-client.js'
import { approveCommand, formatWaiting } from './format-approval.js'

const NONE_WAIT = 'No workspace servers wait for approval.'

export async function listWaiting(ctx: CliContext): Promise<number> {
  const { waiting } = await (await connectDaemon(ctx.stateDir)).get<WorkspaceResponse>('/workspace')
  if (waiting.length === 0) {
    ctx.out(NONE_WAIT)
    return 0
  }
  ctx.out(waiting.map((entry) => show(entry, true)).join('\n\n'))
  return 0
}

/**
 * `<name>@<digest>` approves what an earlier listing showed, without asking. Bare names (or none,
 * for every waiting entry) are shown now, then approved by what was shown once the person says yes
 * at the terminal, or at once with `--yes`.
 */
export async function approve(
  ctx: CliContext,
  args: string[],
  options: { yes?: boolean },
): Promise<number> {
  const client = await connectDaemon(ctx.stateDir)
  const named = args.map(parseTarget)
  const pinned = named.filter((target) => target.digest !== undefined)
  const bare = named.filter((target) => target.digest === undefined).map((target) => target.name)
  const shown: WorkspaceApproveRequest['entries'] = []
  if (bare.length > 0 || args.length === 0) {
    const query = bare.map((name) => `server=${encodeURIComponent(name)}`).join('&')
    const { waiting } = await client.get<WorkspaceResponse>(
      `/workspace${query === '' ? '' : `?${query}`}`,
    )
    if (waiting.length === 0 && pinned.length === 0) {
      ctx.out(NONE_WAIT)
      return 0
    }
    if (waiting.length > 0) {
      ctx.out(waiting.map((entry) => show(entry, false)).join('\n\n'))
      if (!(await confirmed(ctx, waiting.length, options.yes === true))) {
        ctx.out('Nothing approved.')
        return 0
      }
    }
    shown.push(...waiting.map((entry) => ({ name: entry.name, digest: entry.digest })))
  }
  const entries = [...pinned.map(({ name, digest }) => ({ name, digest: digest ?? '' })), ...shown]
  return report(ctx, client, entries)
}

async function report(
  ctx: CliContext,
  client: DaemonClient,
  entries: WorkspaceApproveRequest['entries'],
): Promise<number> {
  const body: WorkspaceApproveRequest = { entries }
  const result = await client.post<WorkspaceApproveResponse>('/workspace/approve', body)
  ctx.out(`Approved from ${result.file}: ${result.approved.join(', ')}`)
  for (const warning of result.reload.warnings) ctx.out(`Warning: ${warning}`)
  return 0
}

async function confirmed(ctx: CliContext, count: number, yes: boolean): Promise<boolean> {
  if (yes) return true
  if (!canPrompt(ctx.io)) {
    throw new FerryError(
      ErrorCode.BadRequest,
      'nothing was approved: there is no terminal to ask at; review what is shown above, then ' +
        'run again with --yes, or approve each entry by the digest shown: ' +
        '`ferry workspace approve <name>@<digest>`',
    )
  }
  const what = count === 1 ? 'this server' : `these ${count} servers`
  return promptYesNo(ctx.io, `Approve ${what} exactly as shown?`)
}

function show(entry: WorkspaceEntry, withCommand: boolean): string {
  const lines = formatWaiting(entry)
  if (withCommand) lines.push(`  approve: ${approveCommand(entry)}`)
  return lines.join('\n')
}

/** `name@<64 hex>` pins a digest; anything else is a name (names may hold `@` themselves). */
function parseTarget(arg: string): { name: string; digest: string | undefined } {
  const at = arg.lastIndexOf('@')
  const digest = at === -1 ? undefined : arg.slice(at + 1)
  if (digest !== undefined && DIGEST_PATTERN.test(digest)) {
    return { name: arg.slice(0, at), digest }
  }
  return { name: arg, digest: undefined }
}
