// Which strings a starting daemon accepts as the previous run's token.

import { describe, expect, it } from 'vitest'
import { isWellFormedToken, newToken } from './token.js'

describe('isWellFormedToken', () => {
  it('accepts what newToken makes', () => {
    for (let i = 0; i < 50; i++) expect(isWellFormedToken(newToken())).toBe(true)
  })

  it('rejects other lengths, characters outside base64url, padding and stray low bits', () => {
    const token = newToken()
    for (const bad of [
      '',
      token.slice(0, 42),
      `${token}A`,
      `${token.slice(0, 42)}=`,
      `${token.slice(0, 42)}+`,
      `${token.slice(0, 41)}/A`,
      `${'A'.repeat(42)}B`,
      ` ${token.slice(1)}`,
    ]) {
      expect(isWellFormedToken(bad), bad).toBe(false)
    }
    for (const bad of [undefined, null, 42, {}, [token]]) expect(isWellFormedToken(bad)).toBe(false)
  })
})
