// Adds `Mcp-Method`, `Mcp-Name` and a missing `MCP-Protocol-Version` to legacy Streamable HTTP
// requests: the SDK's legacy client sends only the protocol version (after initialize).

import type { FetchLike } from '@modelcontextprotocol/client'

const HEADER_SAFE = /^[\x20-\x7e]*$/

interface RpcShape {
  method?: unknown
  params?: { name?: unknown; protocolVersion?: unknown }
}

function firstMessage(body: string): RpcShape | undefined {
  try {
    const parsed: unknown = JSON.parse(body)
    const first: unknown = Array.isArray(parsed) ? parsed[0] : parsed
    return typeof first === 'object' && first !== null ? (first as RpcShape) : undefined
  } catch {
    return undefined
  }
}

export function withMcpHeaders(
  negotiatedVersion: () => string | undefined,
  inner: FetchLike = fetch,
): FetchLike {
  return (url, init) => {
    if (init?.method !== 'POST' || typeof init.body !== 'string') return inner(url, init)
    const message = firstMessage(init.body)
    if (message === undefined || typeof message.method !== 'string') return inner(url, init)
    const headers = new Headers(init.headers)
    headers.set('mcp-method', message.method)
    const name = message.params?.name
    if (message.method === 'tools/call' && typeof name === 'string' && HEADER_SAFE.test(name)) {
      headers.set('mcp-name', name)
    }
    if (!headers.has('mcp-protocol-version')) {
      const requested = message.params?.protocolVersion
      const version =
        message.method === 'initialize' && typeof requested === 'string'
          ? requested
          : negotiatedVersion()
      if (version !== undefined) headers.set('mcp-protocol-version', version)
    }
    return inner(url, { ...init, headers })
  }
}
