import type { Tool } from '@modelcontextprotocol/client'
import { describe, expect, it } from 'vitest'
import type { ServerConfig } from '../config/types.js'
import { buildRegistry, isModelVisible, toToolInfo, toolFingerprint } from './registry.js'

const config = (name: string, filters: Partial<ServerConfig> = {}) =>
  ({ name, includeTools: undefined, excludeTools: undefined, ...filters }) as ServerConfig
const tool = (name: string, extra: Partial<Tool> = {}): Tool =>
  ({ name, inputSchema: { type: 'object' }, ...extra }) as Tool

describe('buildRegistry', () => {
  it('keeps title, description, schema and only the four hint annotations plus title', () => {
    const [entry] = buildRegistry([
      {
        config: config('s'),
        fingerprint: 'f',
        appNotShown: () => null,
        taskBlocker: null,
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
        fingerprint: 'f',
        appNotShown: () => null,
        taskBlocker: null,
        tools: [tool('a'), tool('b'), tool('c')],
      },
    ])
    expect(entries.map((entry) => entry.tool)).toEqual(['a'])
  })

  it('says a tool that needs a task cannot be called where its connection takes no task', () => {
    const tools = [
      tool('needs', { execution: { taskSupport: 'required' } } as Partial<Tool>),
      tool('may', { execution: { taskSupport: 'optional' } } as Partial<Tool>),
      tool('plain'),
    ]
    const source = { config: config('s'), fingerprint: 'f', appNotShown: () => null, tools }
    const blocked = buildRegistry([{ ...source, taskBlocker: 'no tasks here' }])
    expect(
      blocked.map(({ tool, taskSupport, notCallable }) => [tool, taskSupport, notCallable]),
    ).toEqual([
      ['needs', 'required', 'no tasks here'],
      ['may', 'optional', null],
      ['plain', null, null],
    ])
    const open = buildRegistry([{ ...source, taskBlocker: null }])
    expect(open.map((entry) => entry.notCallable)).toEqual([null, null, null])
  })

  it('counts every tool of a server that declares the Tasks extension as one that may run as a task, unless it says otherwise', () => {
    const tools = [
      tool('needs', { execution: { taskSupport: 'required' } } as Partial<Tool>),
      tool('never', { execution: { taskSupport: 'forbidden' } } as Partial<Tool>),
      tool('plain'),
    ]
    const source = { config: config('s'), fingerprint: 'f', appNotShown: () => null, tools }
    const entries = buildRegistry([{ ...source, taskBlocker: null, serverTasks: true }])
    expect(entries.map((entry) => entry.taskSupport)).toEqual(['required', null, 'optional'])
  })
})

describe('App resources and visibility', () => {
  const appTools = [
    tool('chart', { _meta: { ui: { resourceUri: 'ui://s/chart' } } }),
    tool('refresh', { _meta: { ui: { resourceUri: 'ui://s/chart', visibility: ['app'] } } }),
  ]

  it('keeps every ui:// resource a tool names, with the reason its App cannot be shown', () => {
    const reasons: Record<string, string> = {
      'ui://s/chart': 'App not shown: the server has no resource',
    }
    const [chart, , plain] = buildRegistry([
      {
        config: config('s'),
        fingerprint: 'f',
        appNotShown: (uri) => reasons[uri] ?? null,
        taskBlocker: null,
        tools: [...appTools, tool('plain')],
      },
    ])
    expect(chart).toMatchObject({
      uiResourceUri: 'ui://s/chart',
      appNotShown: 'App not shown: the server has no resource',
    })
    expect(plain).toMatchObject({ uiResourceUri: null, appNotShown: null })
  })

  it('marks app-only tools as not model-visible and leaves visibility out of ToolInfo', () => {
    const entries = buildRegistry([
      {
        config: config('s'),
        fingerprint: 'f',
        appNotShown: () => null,
        taskBlocker: null,
        tools: appTools,
      },
    ])
    expect(entries.map((entry) => [entry.tool, entry.visibility, isModelVisible(entry)])).toEqual([
      ['chart', ['model', 'app'], true],
      ['refresh', ['app'], false],
    ])
    expect(toToolInfo(entries[0] as (typeof entries)[0])).not.toHaveProperty('visibility')
  })

  it('carries the server and tool fingerprints, and leaves them out of ToolInfo', () => {
    const [entry] = buildRegistry([
      {
        config: config('s'),
        fingerprint: 'f',
        appNotShown: () => null,
        taskBlocker: null,
        tools: [tool('t')],
      },
    ])
    expect(entry?.serverFingerprint).toBe('f')
    expect(entry?.toolFingerprint).toBe(toolFingerprint(tool('t')))
    const info = toToolInfo(entry as NonNullable<typeof entry>)
    expect(info).not.toHaveProperty('serverFingerprint')
    expect(info).not.toHaveProperty('toolFingerprint')
  })
})

describe('toolFingerprint', () => {
  const base = tool('t', {
    description: 'does t',
    inputSchema: { type: 'object', properties: { a: { type: 'string' } } },
    annotations: { readOnlyHint: false, title: 'Tee' },
  })

  it('changes with the name, the input schema or the annotations', () => {
    const variants = [
      { ...base, name: 'u' },
      { ...base, inputSchema: { type: 'object', properties: { b: { type: 'string' } } } },
      { ...base, annotations: { readOnlyHint: false, destructiveHint: true, title: 'Tee' } },
      { ...base, annotations: undefined },
    ] as Tool[]
    const prints = new Set([base, ...variants].map(toolFingerprint))
    expect(prints.size).toBe(variants.length + 1)
  })

  it('ignores key order, the description and the title', () => {
    const reordered = {
      annotations: { title: 'Tee', readOnlyHint: false },
      inputSchema: { properties: { a: { type: 'string' } }, type: 'object' },
      name: 't',
      description: 'does something else',
      title: 'Another title',
    } as Tool
    expect(toolFingerprint(reordered)).toBe(toolFingerprint(base))
  })
})
