// ferry sessions [list] | new | rename | rm: thin clients of the sessions API.

import type { SessionInfo } from '../protocol/index.js'
import type { CliContext } from './context.js'
import { connectDaemon } from './daemon-client.js'
import { jsonText } from './terminal-text.js'

function describe(session: SessionInfo): string {
  const flags = [
    session.isDefault ? 'default' : '',
    session.damaged ? `damaged: ${session.damaged}` : '',
  ]
    .filter(Boolean)
    .join(', ')
  return `${session.id}  ${session.name}  ${session.headSeq} ${session.headSeq === 1 ? 'event' : 'events'}${flags ? `  (${flags})` : ''}`
}

export async function listSessions(ctx: CliContext, json: boolean): Promise<number> {
  const list = await (await connectDaemon(ctx.stateDir)).get<SessionInfo[]>('/sessions')
  ctx.out(json ? jsonText(list, 2) : list.map(describe).join('\n') || 'No sessions.')
  return 0
}

export async function newSession(ctx: CliContext, name: string): Promise<number> {
  const session = await (await connectDaemon(ctx.stateDir)).post<SessionInfo>('/sessions', { name })
  ctx.out(`${session.id} ${session.name}`)
  return 0
}

export async function renameSession(ctx: CliContext, id: string, name: string): Promise<number> {
  const client = await connectDaemon(ctx.stateDir)
  const session = await client.send<SessionInfo>('PATCH', `/sessions/${encodeURIComponent(id)}`, {
    name,
  })
  ctx.out(describe(session))
  return 0
}

export async function removeSession(ctx: CliContext, id: string): Promise<number> {
  await (await connectDaemon(ctx.stateDir)).send('DELETE', `/sessions/${encodeURIComponent(id)}`)
  ctx.out(`Deleted session ${id}.`)
  return 0
}

export async function compactSession(ctx: CliContext, id: string): Promise<number> {
  const session = await (
    await connectDaemon(ctx.stateDir)
  ).post<SessionInfo>(`/sessions/${encodeURIComponent(id)}/compact`)
  ctx.out(`Compacted session ${id} through seq ${session.compactedThrough}.`)
  return 0
}
