// ferry workspace [approve [<server>…]]: list the workspace's servers that wait for approval, and
// approve them so they start.

import type { ServerInfo, WorkspaceApproveResponse } from '../protocol/index.js'
import type { CliContext } from './context.js'
import { connectDaemon } from './daemon-client.js'

export async function listWaiting(ctx: CliContext): Promise<number> {
  const servers = await (await connectDaemon(ctx.stateDir)).get<ServerInfo[]>('/servers')
  const waiting = servers.filter((server) => server.status === 'awaiting_approval')
  if (waiting.length === 0) {
    ctx.out('No workspace servers wait for approval.')
    return 0
  }
  for (const server of waiting) ctx.out(`${server.name}: ${server.error ?? ''}`)
  return 0
}

export async function approve(ctx: CliContext, names: string[]): Promise<number> {
  const body = names.length === 0 ? {} : { servers: names }
  const result = await (
    await connectDaemon(ctx.stateDir)
  ).post<WorkspaceApproveResponse>('/workspace/approve', body)
  if (result.approved.length === 0) {
    ctx.out('No workspace servers wait for approval.')
    return 0
  }
  ctx.out(`Approved from ${result.file}: ${result.approved.join(', ')}`)
  for (const warning of result.reload.warnings) ctx.out(`Warning: ${warning}`)
  return 0
}
