import { describe, expect, it } from 'vitest'
import { redactUrl } from './redact-url.js'

describe('redactUrl', () => {
  it('hides credentials, query values and the fragment, and keeps the rest as written', () => {
    expect(redactUrl('https://user:pw@host.test:8443/mcp?token=abc&v=1&flag#frag')).toBe(
      'https://[redacted]@host.test:8443/mcp?token=[redacted]&v=[redacted]&[redacted]#[redacted]',
    )
    expect(redactUrl('https://${HOST}/mcp?key=${KEY}')).toBe('https://${HOST}/mcp?key=[redacted]')
    expect(redactUrl('http://127.0.0.1:3000/path/a@b')).toBe('http://127.0.0.1:3000/path/a@b')
  })
})
