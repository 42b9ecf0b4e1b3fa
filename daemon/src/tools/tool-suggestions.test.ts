import { describe, expect, it } from 'vitest'
import { didYouMean, suggestTools } from './tool-suggestions.js'

const tools = [
  { name: 'mcp_demo_echo', tool: 'echo' },
  { name: 'mcp_demo_add', tool: 'add' },
  { name: 'mcp_other_echo', tool: 'echo' },
  { name: 'mcp_demo_countdown', tool: 'countdown' },
]

describe('suggestTools', () => {
  it('names the tools a server lists under a bare name, and the names a typo away, best first', () => {
    expect(suggestTools('echo', tools)).toEqual(['mcp_demo_echo', 'mcp_other_echo'])
    expect(suggestTools('mcp_demo_ecoh', tools)).toEqual(['mcp_demo_echo'])
    expect(suggestTools('mcp_demo_countdwn', tools)).toEqual(['mcp_demo_countdown'])
    expect(suggestTools('mcp_nothing_like_it', tools)).toEqual([])
    // A short name is not a typo of everything short.
    expect(suggestTools('ad', tools)).toEqual([])
  })

  it('says them as one phrase', () => {
    expect(didYouMean([])).toBe('')
    expect(didYouMean(['a'])).toBe(' (did you mean a?)')
    expect(didYouMean(['a', 'b', 'c'])).toBe(' (did you mean a, b or c?)')
  })
})
