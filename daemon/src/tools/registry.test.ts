import type { Tool } from '@modelcontextprotocol/client'
import { describe, expect, it } from 'vitest'
import type { ServerConfig } from '../config/types.js'
import { buildRegistry, isModelVisible, toToolInfo } from './registry.js'

const config = (name: string, filters: Partial<ServerConfig> = {}) =>
  ({ name, includeTools: undefined, excludeTools: undefined, ...filters }) as ServerConfig
const tool = (name: string, extra: Partial<Tool> = {}): Tool =>
  ({ name, inputSchema: { type: 'object' }, ...extra }) as Tool

describe('buildRegistry', () => {
  it('keeps title, description, schema and only the four hint annotations plus title', () => {
    const [entry] = buildRegistry([
      {
        config: config('s'),
        appsSupported: false,
        tools: [
          tool('t', {
            title: 'T',
            description: 'does t',
            annotations: { readOnlyHint: true, destructiveHint: false, title: 'Tee' },
          }),
        ],
      },
    ])
    expect(entry).toMatchObject({
      name: 'mcp_s_t',
      server: 's',
      tool: 't',
      title: 'T',
      description: 'does t',
      annotations: { readOnlyHint: true, destructiveHint: false, title: 'Tee' },
      uiResourceUri: null,
    })
  })

  it('lets excludeTools win over includeTools', () => {
    const entries = buildRegistry([
      {
        config: config('s', { includeTools: ['a', 'b'], excludeTools: ['b'] }),
        appsSupported: false,
        tools: [tool('a'), tool('b'), tool('c')],
      },
    ])
    expect(entries.map((entry) => entry.tool)).toEqual(['a'])
  })
})

describe('App resources and visibility', () => {
  const appTools = [
    tool('chart', { _meta: { ui: { resourceUri: 'ui://s/chart' } } }),
    tool('refresh', { _meta: { ui: { resourceUri: 'ui://s/chart', visibility: ['app'] } } }),
  ]

  it('keeps ui:// resources only when the server declares the Apps extension', () => {
    const [withApps] = buildRegistry([
      { config: config('s'), appsSupported: true, tools: appTools },
    ])
    const [without] = buildRegistry([
      { config: config('s'), appsSupported: false, tools: appTools },
    ])
    expect(withApps?.uiResourceUri).toBe('ui://s/chart')
    expect(without?.uiResourceUri).toBeNull()
  })

  it('marks app-only tools as not model-visible and leaves visibility out of ToolInfo', () => {
    const entries = buildRegistry([{ config: config('s'), appsSupported: true, tools: appTools }])
    expect(entries.map((entry) => [entry.tool, entry.visibility, isModelVisible(entry)])).toEqual([
      ['chart', ['model', 'app'], true],
      ['refresh', ['app'], false],
    ])
    expect(toToolInfo(entries[0] as (typeof entries)[0])).not.toHaveProperty('visibility')
  })
})
