import { describe, expect, it } from 'vitest'
import { matchesAny } from './matches-any.js'

describe('matchesAny', () => {
  it('matches whole names with * and ? globs', () => {
    expect(matchesAny('github', ['git*'])).toBe(true)
    expect(matchesAny('github', ['git'])).toBe(false)
    expect(matchesAny('gh1', ['gh?'])).toBe(true)
    expect(matchesAny('gh12', ['gh?'])).toBe(false)
  })

  it('treats names as plain strings, not paths', () => {
    expect(matchesAny('.hidden', ['*'])).toBe(true)
    expect(matchesAny('org/server', ['org*'])).toBe(true)
    expect(matchesAny('a.b', ['a?b'])).toBe(true)
  })

  it('matches nothing with an empty list and does not treat ! as negation', () => {
    expect(matchesAny('x', [])).toBe(false)
    expect(matchesAny('x', ['!y'])).toBe(false)
  })
})
