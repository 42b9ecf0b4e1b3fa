import { SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client'
import { describe, expect, it } from 'vitest'
import {
  describeHttpFailure,
  httpFailureOf,
  isModernOnlyRefusal,
  remoteFaultOf,
  unreachableReason,
} from './http-failures.js'

function httpError(status: number, text: string, statusText = ''): SdkHttpError {
  return new SdkHttpError(
    SdkErrorCode.ClientHttpNotImplemented,
    `Error POSTing to endpoint: ${text}`,
    {
      status,
      statusText,
      text,
    },
  )
}

function refused(): TypeError {
  const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), {
    code: 'ECONNREFUSED',
  })
  return new TypeError('fetch failed', { cause })
}

describe('http failures', () => {
  it('quotes the start of the body on one line and fills in a missing reason phrase', () => {
    const failure = httpFailureOf(httpError(503, `down\n\nfor   maintenance ${'x'.repeat(300)}`))
    expect(failure?.statusText).toBe('Service Unavailable')
    const text = describeHttpFailure(failure!)
    expect(text.startsWith('HTTP 503 Service Unavailable: down for maintenance xxx')).toBe(true)
    expect(text).toHaveLength('HTTP 503 Service Unavailable: '.length + 200 + 1)
    expect(describeHttpFailure({ status: 404, statusText: 'Not Found', body: '' })).toBe(
      'HTTP 404 Not Found (empty body)',
    )
  })

  it('quotes a body that echoes the request URL with the URL redacted', () => {
    const body = 'Cannot POST /mcp?key=S3CR3T; see http://u:p@h.example/mcp?key=S3CR3T'
    expect(describeHttpFailure({ status: 404, statusText: 'Not Found', body })).toBe(
      'HTTP 404 Not Found: Cannot POST /mcp?key=***; see http://***@h.example/mcp?key=***',
    )
    const dns = new TypeError('fetch failed', {
      cause: new Error('getaddrinfo failed for http://h.invalid/mcp?key=S3CR3T'),
    })
    expect(unreachableReason(dns)).toBe(
      'fetch failed: getaddrinfo failed for http://h.invalid/mcp?key=***',
    )
  })

  it('reads "modern only" from a 400 carrying -32022, and from nothing else', () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32022, message: 'unsupported', data: { supported: ['2026-07-28'] } },
    })
    expect(isModernOnlyRefusal({ status: 400, statusText: '', body })).toBe(true)
    expect(isModernOnlyRefusal({ status: 404, statusText: '', body })).toBe(false)
    expect(
      isModernOnlyRefusal({ status: 400, statusText: '', body: '{"error":{"code":-32600}}' }),
    ).toBe(false)
  })

  it('tells a lost session, a server that is down and other errors apart', () => {
    expect(remoteFaultOf(httpError(404, 'Session not found'))).toEqual({ kind: 'session-lost' })
    expect(remoteFaultOf(httpError(502, 'bad gateway'))).toEqual({
      kind: 'down',
      reason: 'HTTP 502 Bad Gateway: bad gateway',
    })
    expect(remoteFaultOf(refused())).toEqual({
      kind: 'down',
      reason: 'connection refused (ECONNREFUSED)',
    })
    expect(remoteFaultOf(httpError(400, 'bad request'))).toBeUndefined()
    expect(remoteFaultOf(new Error('Request timed out'))).toBeUndefined()
    expect(unreachableReason(new TypeError('fetch failed', { cause: new Error('bad port') }))).toBe(
      'fetch failed: bad port',
    )
  })
})
