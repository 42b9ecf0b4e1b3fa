// The tools list's rows: tools grouped by server (servers in name order, each with a header
// row), and a lowercase haystack per tool made once, so a search keystroke is one pass of
// `includes` over them, whatever the number of tools.

import type { ToolInfo } from '../../daemon/src/protocol/index.js'

export type ToolRow = { kind: 'server'; server: string } | { kind: 'tool'; tool: ToolInfo }

/** Search reads this much of a description: enough for any real one, bounded for hostile ones. */
export const SEARCHED_DESCRIPTION = 2_000

export interface ToolIndex {
  /** In display order: grouped by server, servers sorted. */
  tools: readonly ToolInfo[]
  haystacks: readonly string[]
}

export function indexTools(tools: readonly ToolInfo[]): ToolIndex {
  const byServer = new Map<string, ToolInfo[]>()
  for (const tool of tools) {
    const group = byServer.get(tool.server)
    if (group === undefined) byServer.set(tool.server, [tool])
    else group.push(tool)
  }
  const ordered = [...byServer.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([, group]) => group)
  return { tools: ordered, haystacks: ordered.map(haystackOf) }
}

function haystackOf(tool: ToolInfo): string {
  const description = (tool.description ?? '').slice(0, SEARCHED_DESCRIPTION)
  return [tool.name, tool.tool, tool.server, tool.title ?? '', description].join(' ').toLowerCase()
}

/** The rows for `query`: tools matching every word of it, each group under its header. */
export function filterTools(index: ToolIndex, query: string): ToolRow[] {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== '')
  const rows: ToolRow[] = []
  let server: string | undefined
  index.tools.forEach((tool, at) => {
    const haystack = index.haystacks[at] ?? ''
    if (!words.every((word) => haystack.includes(word))) return
    if (tool.server !== server) {
      server = tool.server
      rows.push({ kind: 'server', server })
    }
    rows.push({ kind: 'tool', tool })
  })
  return rows
}
