import { describe, expect, it } from 'vitest'
import { redactUrl, redactUrls } from './redact-url.js'

describe('redactUrl', () => {
  it('hides the userinfo, every query value and the fragment, and keeps the rest as written', () => {
    expect(redactUrl('http://user:pa55@127.0.0.1:1/mcp?key=S3CR3T&Mode=x#frag')).toBe(
      'http://***@127.0.0.1:1/mcp?key=***&Mode=***#***',
    )
    expect(redactUrl('https://token@mcp.example.com')).toBe('https://***@mcp.example.com')
    expect(redactUrl('https://u:p@h.example?x=1')).toBe('https://***@h.example?x=***')
    // A parameter without `=` may be the secret itself; an empty value has nothing to hide.
    expect(redactUrl('https://h.example/mcp?S3CR3T&debug=&&a=b=c')).toBe(
      'https://h.example/mcp?***&debug=&&a=***',
    )
    expect(redactUrl('wss://h.example/a/b@c')).toBe('wss://h.example/a/b@c')
    expect(redactUrl('https://h.example/mcp')).toBe('https://h.example/mcp')
    expect(redactUrl('https://h.example/mcp?#')).toBe('https://h.example/mcp?#')
    // Whatever follows `?` is query, spaces included: a URL given whole leaks nothing of it.
    expect(redactUrl('http://h.example/mcp?key=a b c')).toBe('http://h.example/mcp?key=***')
  })
})

describe('redactUrls', () => {
  it('redacts every URL in a text and leaves the words around them alone', () => {
    expect(
      redactUrls(
        'Request cannot be constructed from a URL that includes credentials: http://user:pa55@127.0.0.1:1/mcp?key=S3CR3T#frag',
      ),
    ).toBe(
      'Request cannot be constructed from a URL that includes credentials: http://***@127.0.0.1:1/mcp?key=***#***',
    )
    expect(
      redactUrls('cannot reach http://h.invalid/mcp?key=S3CR3T: host name not found (ENOTFOUND)'),
    ).toBe('cannot reach http://h.invalid/mcp?key=***: host name not found (ENOTFOUND)')
    expect(
      redactUrls('see <https://a.example/?t=1>, "wss://b.example/?t=2" and (c://x?t=3).'),
    ).toBe('see <https://a.example/?t=***>, "wss://b.example/?t=***" and (c://x?t=***).')
    expect(redactUrls('one http://a.example/?t=1\ntwo http://b.example/?t=2')).toBe(
      'one http://a.example/?t=***\ntwo http://b.example/?t=***',
    )
  })

  it('redacts the query of a path a server echoes back', () => {
    expect(redactUrls('HTTP 404 Not Found: Cannot POST /mcp?key=S3CR3T')).toBe(
      'HTTP 404 Not Found: Cannot POST /mcp?key=***',
    )
    expect(redactUrls('{"path":"/mcp?key=S3CR3T"}')).toBe('{"path":"/mcp?key=***"}')
  })

  it('leaves text without URLs as it is', () => {
    for (const text of [
      'connection refused (ECONNREFUSED)',
      'cannot read /home/ada/.config/ferry/settings.json: no such file',
      'is it? yes / no',
      '',
    ]) {
      expect(redactUrls(text)).toBe(text)
    }
  })
})
