// `ferry grants` and `ferry grants revoke`: thin clients of `/api/grants`.

import { ErrorCode, FerryError } from '../errors.js'
import type { GrantInfo, GrantRevokeResponse, GrantsResponse } from '../protocol/index.js'
import type { CliContext } from './context.js'
import { connectDaemon } from './daemon-client.js'
import { jsonText, terminalText } from './terminal-text.js'

/** One grant on one line: id, what it allows, who gave it and whose calls it covers, since when. */
export function describeGrant(grant: GrantInfo): string {
  const what = grant.scope === 'server' ? `server "${grant.server}"` : `tool ${grant.tool ?? ''}`
  const whose =
    grant.covers === 'session' ? 'every caller in the session' : `${grant.givenBy.label} only`
  return terminalText(
    `${grant.id}  always allow ${what}  given by ${grant.givenBy.label}  for ${whose}  since ${grant.since}`,
  )
}

export async function listGrants(
  ctx: CliContext,
  options: { session?: string; json?: boolean },
): Promise<number> {
  const query =
    options.session === undefined ? '' : `?session=${encodeURIComponent(options.session)}`
  const answer = await (await connectDaemon(ctx.stateDir)).get<GrantsResponse>(`/grants${query}`)
  if (options.json === true) ctx.out(jsonText(answer.grants, 2))
  else if (answer.grants.length === 0) ctx.out(`No grants in session ${answer.session}.`)
  else ctx.out(answer.grants.map(describeGrant).join('\n'))
  return 0
}

export async function revokeGrants(
  ctx: CliContext,
  ids: string[],
  options: { all?: boolean; session?: string },
): Promise<number> {
  if ((options.all === true) === ids.length > 0) {
    throw new FerryError(
      ErrorCode.BadRequest,
      'name the grants to revoke (ids from `ferry grants`), or give --all; not both',
    )
  }
  const answer = await (
    await connectDaemon(ctx.stateDir)
  ).post<GrantRevokeResponse>('/grants/revoke', {
    ...(options.session === undefined ? {} : { session: options.session }),
    ...(options.all === true ? { all: true } : { ids }),
    client: { kind: 'cli', label: `ferry grants revoke (pid ${process.pid})` },
  })
  if (answer.revoked.length === 0) ctx.out(`No grants in session ${answer.session}.`)
  for (const grant of answer.revoked) ctx.out(`Revoked ${describeGrant(grant)}`)
  return 0
}
