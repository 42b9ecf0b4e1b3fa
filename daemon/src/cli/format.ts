// Plain-text renderings for the terminal: server and tool tables, and a tool result as text.

import type { CallToolResult, ServerInfo, ToolInfo } from '../protocol/index.js'
import { jsonText, terminalText } from './terminal-text.js'

export function table(cells: string[][]): string {
  // Cells are made visible first, so the columns line up as they are shown.
  const rows = cells.map((row) => row.map(terminalText))
  const widths: number[] = []
  for (const row of rows)
    row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)))
  return rows
    .map((row) =>
      row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  '),
    )
    .join('\n')
}

export function formatServers(servers: ServerInfo[]): string {
  if (servers.length === 0) return 'No servers configured.'
  const ready = servers.filter((server) => server.status === 'ready').length
  const rows = [['NAME', 'STATUS', 'TRANSPORT', 'PROTOCOL', 'TOOLS', 'ERROR']]
  for (const s of servers) {
    const protocol = s.protocolVersion === null ? '-' : `${s.protocolVersion} (${s.era})`
    rows.push([s.name, s.status, s.transport ?? '-', protocol, String(s.toolCount), s.error ?? ''])
  }
  return `${table(rows)}\n${ready}/${servers.length} ready`
}

export function formatTools(tools: ToolInfo[]): string {
  if (tools.length === 0) return 'No tools available.'
  const rows = [['NAME', 'SERVER', 'HINTS', 'DESCRIPTION']]
  for (const t of tools) {
    const hints = [
      t.annotations.readOnlyHint ? 'read-only' : '',
      t.annotations.destructiveHint ? 'destructive' : '',
      t.taskSupport === 'required' ? 'task' : '',
      t.uiResourceUri !== null ? 'app' : '',
    ].filter(Boolean)
    const description = (t.title ?? t.description ?? '').split('\n')[0] ?? ''
    const about =
      t.notCallable === null ? description.slice(0, 80) : `cannot be called: ${t.notCallable}`
    // The last column is not padded, so the reason can run on without pushing the others.
    const shown = t.appNotShown === null ? about : `${about} (${t.appNotShown})`
    rows.push([t.name, t.server, hints.join(',') || '-', shown.trimStart()])
  }
  return table(rows)
}

/**
 * Why tools may be missing from `ferry tools`, where Ferry can tell: servers that are not ready,
 * tools a server lists that are not offered, and what Ferry does not declare to a server that it
 * may require before listing a tool. Empty when nothing is missing.
 */
export function formatMissingTools(servers: ServerInfo[]): string {
  const rows: string[][] = []
  for (const server of servers) {
    if (server.status !== 'ready') {
      const why = server.error === null ? '' : `: ${server.error.split('\n')[0] ?? ''}`
      rows.push([server.name, '*', `server ${server.status}${why}`])
      continue
    }
    const byReason = new Map<string, string[]>()
    for (const { tool, reason } of server.hiddenTools)
      byReason.set(reason, [...(byReason.get(reason) ?? []), tool])
    for (const [reason, tools] of byReason) rows.push([server.name, tools.join(', '), reason])
    for (const what of server.undeclared)
      rows.push([
        server.name,
        '?',
        `not declared to it, so tools that need it may be left out: ${what}`,
      ])
  }
  if (rows.length === 0) return ''
  return `Not listed above:\n${table([['SERVER', 'TOOLS', 'WHY'], ...rows])}`
}

export function describeBlock(block: Record<string, unknown>): string {
  switch (block.type) {
    case 'text':
      return String(block.text ?? '')
    case 'image':
    case 'audio': {
      const size = typeof block.data === 'string' ? Math.floor((block.data.length * 3) / 4) : 0
      return `[${block.type} ${String(block.mimeType ?? '')}, ${size} bytes]`
    }
    case 'resource_link':
      return `[resource link ${String(block.uri ?? '')}${block.name ? ` "${String(block.name)}"` : ''}]`
    case 'resource': {
      const resource = (block.resource ?? {}) as Record<string, unknown>
      return typeof resource.text === 'string'
        ? resource.text
        : `[resource ${String(resource.uri ?? '')}, ${String(resource.mimeType ?? 'binary')}]`
    }
    default:
      return `[${String(block.type)} content]`
  }
}

export function formatResult(result: CallToolResult): string {
  const content = Array.isArray(result.content) ? (result.content as Record<string, unknown>[]) : []
  const parts = content.map(describeBlock)
  if (result.structuredContent !== undefined && parts.length === 0) {
    parts.push(jsonText(result.structuredContent, 2))
  }
  return parts.join('\n')
}
