import { describe, expect, it } from 'vitest'
import { withMcpHeaders } from './mcp-headers.js'

async function headersSentFor(
  body: unknown,
  existing: Record<string, string> = {},
  version?: string,
) {
  let seen: Headers | undefined
  const wrapped = withMcpHeaders(
    () => version,
    async (_url, init) => {
      seen = new Headers(init?.headers)
      return new Response('{}')
    },
  )
  await wrapped('http://127.0.0.1:1/mcp', {
    method: 'POST',
    headers: existing,
    body: JSON.stringify(body),
  })
  return seen as Headers
}

describe('withMcpHeaders', () => {
  it('adds Mcp-Method and, for tools/call, Mcp-Name', async () => {
    const headers = await headersSentFor(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo' } },
      { 'mcp-protocol-version': '2025-11-25' },
    )
    expect(headers.get('mcp-method')).toBe('tools/call')
    expect(headers.get('mcp-name')).toBe('echo')
    expect(headers.get('mcp-protocol-version')).toBe('2025-11-25')
  })

  it('sends the requested version on initialize, before one is negotiated', async () => {
    const headers = await headersSentFor({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25' },
    })
    expect(headers.get('mcp-protocol-version')).toBe('2025-11-25')
    expect(headers.get('mcp-name')).toBeNull()
  })

  it('fills a missing version from the negotiated one and leaves non-ASCII names out', async () => {
    const headers = await headersSentFor(
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'wetter-für-köln' } },
      {},
      '2025-06-18',
    )
    expect(headers.get('mcp-protocol-version')).toBe('2025-06-18')
    expect(headers.get('mcp-name')).toBeNull()
  })

  it('uses the first message of a batch and passes GET requests through untouched', async () => {
    const batch = await headersSentFor([
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 3, method: 'ping' },
    ])
    expect(batch.get('mcp-method')).toBe('notifications/initialized')
    let seen: RequestInit | undefined
    await withMcpHeaders(
      () => undefined,
      async (_url, init) => {
        seen = init
        return new Response('')
      },
    )('http://127.0.0.1:1/mcp', { method: 'GET' })
    expect(new Headers(seen?.headers).get('mcp-method')).toBeNull()
  })
})
