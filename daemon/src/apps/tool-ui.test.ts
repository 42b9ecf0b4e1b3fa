import type { Tool } from '@modelcontextprotocol/client'
import { describe, expect, it } from 'vitest'
import { readToolUi } from './tool-ui.js'

const tool = (meta: Record<string, unknown>): Tool =>
  ({ name: 't', inputSchema: { type: 'object' }, _meta: meta }) as Tool

describe('readToolUi', () => {
  it('reads _meta.ui.resourceUri, then the older flat key', () => {
    expect(readToolUi(tool({ ui: { resourceUri: 'ui://app/a' } })).resourceUri).toBe('ui://app/a')
    expect(readToolUi(tool({ 'ui/resourceUri': 'ui://app/b' })).resourceUri).toBe('ui://app/b')
    expect(
      readToolUi(tool({ ui: { resourceUri: 'ui://app/c' }, 'ui/resourceUri': 'ui://x' }))
        .resourceUri,
    ).toBe('ui://app/c')
  })

  it('ignores a resource that is not ui://, with a warning', () => {
    const declared = tool({ ui: { resourceUri: 'https://x.example/app' } })
    expect(readToolUi(declared)).toEqual({
      resourceUri: null,
      visibility: ['model', 'app'],
      warnings: [
        'tool "t" declares "https://x.example/app" as its App resource, which is not a ui:// URI; the tool works without its App',
      ],
    })
    expect(readToolUi(tool({ ui: { resourceUri: 42 } })).warnings).toEqual([
      'tool "t" declares a value as its App resource, which is not a ui:// URI; the tool works without its App',
    ])
    expect(readToolUi(tool({ ui: { resourceUri: 'ui://' } })).resourceUri).toBeNull()
  })

  it('keeps the declared visibility, defaults to model and app, and warns about the rest', () => {
    expect(readToolUi(tool({})).visibility).toEqual(['model', 'app'])
    expect(readToolUi(tool({ ui: { visibility: ['app'] } })).visibility).toEqual(['app'])
    expect(readToolUi(tool({ ui: { visibility: [] } })).visibility).toEqual([])
    expect(readToolUi(tool({ ui: { visibility: ['app', 'user'] } }))).toMatchObject({
      visibility: ['app'],
      warnings: ['tool "t" lists an unknown visibility "user", ignored'],
    })
    expect(readToolUi(tool({ ui: { visibility: 'app' } }))).toMatchObject({
      visibility: ['model', 'app'],
      warnings: ['tool "t" has a _meta.ui.visibility that is not a list; using ["model","app"]'],
    })
  })
})
