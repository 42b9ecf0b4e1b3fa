import { describe, expect, it } from 'vitest'
import { jsonBody } from './json-body.js'

function post(body: string, headers: Record<string, string> = {}): Request {
  return new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      ...headers,
    },
    body,
  })
}

describe('jsonBody', () => {
  it('parses a JSON POST once and hands on the request it came with', async () => {
    const request = post('{"jsonrpc":"2.0","id":1,"method":"tools/list"}')
    const read = await jsonBody(request, 1024)
    expect(read.parsedBody).toEqual({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
    expect(read.request).toBe(request)
  })

  it('leaves a body that is not JSON for the SDK to answer, still readable', async () => {
    const read = await jsonBody(post('{"jsonrpc":'), 1024)
    expect(read.parsedBody).toBeUndefined()
    expect(await read.request.text()).toBe('{"jsonrpc":')
    expect(read.request.headers.get('content-type')).toBe('application/json')
  })

  it('does not read a body over the limit, of another type, or without a length', async () => {
    const cases = [
      post('{"a":"0123456789"}'),
      post('{}', { 'content-type': 'text/plain' }),
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: new ReadableStream({
          start: (c) => {
            c.enqueue(new TextEncoder().encode('{}'))
            c.close()
          },
        }),
        duplex: 'half',
      } as RequestInit),
    ]
    for (const request of cases) {
      const read = await jsonBody(request, 10)
      expect(read.parsedBody).toBeUndefined()
      expect(read.request).toBe(request)
      expect(request.bodyUsed).toBe(false)
    }
  })

  it('leaves requests other than POST alone', async () => {
    const request = new Request('http://127.0.0.1/mcp', { method: 'GET' })
    expect(await jsonBody(request, 1024)).toEqual({ request })
  })
})
