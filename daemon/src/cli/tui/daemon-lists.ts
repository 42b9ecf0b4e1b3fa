// The lists the attach screen prints (`/tools`, `/servers`, `/sessions`), read through the REST
// API so they are exactly what `ferry tools` and friends see.

import type { ServerInfo, SessionInfo, ToolInfo } from '../../protocol/index.js'
import { connectDaemon } from '../daemon-client.js'
import { formatServers, formatTools } from '../format.js'

export async function fetchTools(stateDir: string): Promise<ToolInfo[]> {
  return (await connectDaemon(stateDir)).get<ToolInfo[]>('/tools')
}

export async function fetchSessions(stateDir: string): Promise<SessionInfo[]> {
  return (await connectDaemon(stateDir)).get<SessionInfo[]>('/sessions')
}

export function toolLines(tools: ToolInfo[]): string[] {
  return formatTools(tools).split('\n')
}

export async function serverLines(stateDir: string): Promise<string[]> {
  const servers = await (await connectDaemon(stateDir)).get<ServerInfo[]>('/servers')
  return formatServers(servers).split('\n')
}

export function sessionLines(sessions: SessionInfo[], current: string | undefined): string[] {
  if (sessions.length === 0) return ['No sessions.']
  return sessions.map((s) => {
    const flags = [s.id === current ? 'attached' : '', s.isDefault ? 'default' : '']
      .filter(Boolean)
      .join(', ')
    return `${s.id === current ? '*' : ' '} ${s.id}  ${s.name}  ${s.headSeq} ${s.headSeq === 1 ? 'event' : 'events'}${flags ? `  (${flags})` : ''}`
  })
}
