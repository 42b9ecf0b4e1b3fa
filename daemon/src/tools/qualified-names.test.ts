import { describe, expect, it } from 'vitest'
import { MAX_TOOL_NAME_LENGTH, qualifyNames } from './qualified-names.js'

const valid = /^[A-Za-z0-9_-]{1,64}$/

describe('qualifyNames', () => {
  it('joins server and tool as mcp_{server}_{tool} when nothing collides', () => {
    expect(qualifyNames([{ server: 'github', tool: 'create_issue' }])).toEqual([
      'mcp_github_create_issue',
    ])
  })

  it('replaces characters outside [A-Za-z0-9_-]', () => {
    const [name] = qualifyNames([{ server: 'my.server', tool: 'read file/ü' }])
    expect(name).toBe('mcp_my_server_read_file__')
    expect(name).toMatch(valid)
  })

  it('gives the a_b + c and a + b_c collision two distinct names in either order', () => {
    const one = { server: 'a_b', tool: 'c' }
    const two = { server: 'a', tool: 'b_c' }
    const forward = qualifyNames([one, two])
    const backward = qualifyNames([two, one])
    expect(forward[0]).not.toBe(forward[1])
    expect(forward[0]).toBe(backward[1])
    expect(forward[1]).toBe(backward[0])
    for (const name of forward) expect(name).toMatch(valid)
    expect(forward).not.toContain('mcp_a_b_c')
  })

  it('shortens a 100-character tool name to 64 characters with a stable suffix', () => {
    const tool = 'x'.repeat(100)
    const [first] = qualifyNames([{ server: 'long', tool }])
    const [again] = qualifyNames([{ server: 'long', tool }])
    expect(first).toHaveLength(MAX_TOOL_NAME_LENGTH)
    expect(first).toMatch(valid)
    expect(first).toBe(again)
    const [other] = qualifyNames([{ server: 'long', tool: `${'x'.repeat(99)}y` }])
    expect(other).not.toBe(first)
  })

  it('keeps a name unchanged when an unrelated server appears', () => {
    const before = qualifyNames([{ server: 'a', tool: 'b_c' }])
    const after = qualifyNames([
      { server: 'zzz', tool: 'other' },
      { server: 'a', tool: 'b_c' },
    ])
    expect(after[1]).toBe(before[0])
  })
})
