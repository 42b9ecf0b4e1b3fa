import { describe, expect, it } from 'vitest'
import type { ToolInfo } from '../../daemon/src/protocol/index.js'
import { filterTools, indexTools, SEARCHED_DESCRIPTION } from './tool-index.js'

function tool(server: string, name: string, description: string | null = null): ToolInfo {
  return {
    name: `mcp_${server}_${name}`,
    tool: name,
    server,
    title: null,
    description,
    inputSchema: { type: 'object' },
    annotations: {},
  } as unknown as ToolInfo
}

const names = (rows: ReturnType<typeof filterTools>) =>
  rows.map((row) => (row.kind === 'server' ? `[${row.server}]` : row.tool.tool))

describe('the tools index', () => {
  const index = indexTools([
    tool('web', 'fetch', 'Fetches a URL'),
    tool('files', 'read', 'Reads a file'),
    tool('web', 'search', 'Searches the web'),
    tool('files', 'write', 'Writes a file'),
  ])

  it('groups tools under their server, servers in name order, tools in the server’s order', () => {
    expect(names(filterTools(index, ''))).toEqual([
      '[files]',
      'read',
      'write',
      '[web]',
      'fetch',
      'search',
    ])
  })

  it('matches every word of the query across name, server and description, ignoring case', () => {
    expect(names(filterTools(index, 'A FILE'))).toEqual(['[files]', 'read', 'write'])
    expect(names(filterTools(index, 'web  url'))).toEqual(['[web]', 'fetch'])
    expect(names(filterTools(index, 'files fetch'))).toEqual([])
  })

  it('searches only the start of a very long description', () => {
    const long = indexTools([tool('x', 'big', `${'a'.repeat(SEARCHED_DESCRIPTION)}needle`)])
    expect(filterTools(long, 'needle')).toEqual([])
    expect(names(filterTools(long, 'big'))).toEqual(['[x]', 'big'])
  })
})
