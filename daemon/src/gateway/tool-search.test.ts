import type { Tool } from '@modelcontextprotocol/server'
import { describe, expect, it } from 'vitest'
import type { ClientView } from './client-view.js'
import { searchResult, searchTools } from './tool-search.js'

const tool = (name: string, description: string, params: string[] = []): Tool => ({
  name,
  description,
  inputSchema: { type: 'object', properties: Object.fromEntries(params.map((p) => [p, {}])) },
})

const tools = [
  tool('mcp_fs_readFile', 'Reads one file.', ['path']),
  tool('mcp_fs_list-directories', 'Lists the directories under a path.', ['path']),
  tool('mcp_web_fetch_page', 'Downloads a web page.', ['url']),
]

describe('searchTools', () => {
  it('matches the words of a name split at camelCase, dashes and underscores', () => {
    expect(searchTools(tools, 'read file', 5)[0]?.name).toBe('mcp_fs_readFile')
    expect(searchTools(tools, 'fetch', 5)[0]?.name).toBe('mcp_web_fetch_page')
  })

  it('takes a plural for its singular and ignores words too common to tell tools apart', () => {
    expect(searchTools(tools, 'list the directory', 5)[0]?.name).toBe('mcp_fs_list-directories')
    expect(searchTools(tools, 'the and of to', 5)).toEqual([])
  })

  it('returns at most the limit, and nothing for words no tool has', () => {
    expect(searchTools(tools, 'path', 1)).toHaveLength(1)
    expect(searchTools(tools, 'zebra', 5)).toEqual([])
  })

  it('says how many tools it found, the noun agreeing with the count', () => {
    const view = { tools: () => tools } as unknown as ClientView
    const text = (limit: number) => {
      const [first] = searchResult(view, { query: 'path', limit }).content
      return first?.type === 'text' ? first.text : ''
    }
    expect(text(1)).toMatch(/^1 tool for "path"/)
    expect(text(2)).toMatch(/^2 tools for "path"/)
  })
})
