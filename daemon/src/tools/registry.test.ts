import type { Tool } from '@modelcontextprotocol/client'
import { describe, expect, it } from 'vitest'
import type { ServerConfig } from '../config/types.js'
import { buildRegistry, uiResourceUri } from './registry.js'

const config = (name: string, filters: Partial<ServerConfig> = {}) =>
  ({ name, includeTools: undefined, excludeTools: undefined, ...filters }) as ServerConfig
const tool = (name: string, extra: Partial<Tool> = {}): Tool =>
  ({ name, inputSchema: { type: 'object' }, ...extra }) as Tool

describe('buildRegistry', () => {
  it('keeps title, description, schema and only the four hint annotations plus title', () => {
    const [entry] = buildRegistry([
      {
        config: config('s'),
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
        tools: [tool('a'), tool('b'), tool('c')],
      },
    ])
    expect(entries.map((entry) => entry.tool)).toEqual(['a'])
  })
})

describe('uiResourceUri', () => {
  it('reads _meta.ui.resourceUri, then the older flat key, and ignores non-ui:// values', () => {
    expect(uiResourceUri(tool('a', { _meta: { ui: { resourceUri: 'ui://app/a' } } }))).toBe(
      'ui://app/a',
    )
    expect(uiResourceUri(tool('b', { _meta: { 'ui/resourceUri': 'ui://app/b' } }))).toBe(
      'ui://app/b',
    )
    expect(uiResourceUri(tool('c', { _meta: { ui: { resourceUri: 'https://x/app' } } }))).toBeNull()
  })
})
