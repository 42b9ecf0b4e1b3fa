// Builds the SDK transport for one server config: stdio through the process-group launcher,
// Streamable HTTP with Ferry's legacy request headers, or SSE.

import {
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import type { ServerConfig } from '../config/types.js'
import { launcherPath } from './launcher-facts.js'
import { withMcpHeaders } from './mcp-headers.js'

export interface TransportHooks {
  /** Receives every stderr chunk of a stdio server (the session process, not the probe sibling). */
  onStderr: (chunk: Buffer) => void
  /** The protocol version the client negotiated, once known. */
  negotiatedVersion: () => string | undefined
}

export function createTransport(config: ServerConfig, hooks: TransportHooks): Transport {
  switch (config.transport) {
    case 'stdio': {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [launcherPath, config.command, ...config.args],
        env: config.env,
        cwd: config.cwd,
        stderr: 'pipe',
      })
      transport.stderr?.on('data', hooks.onStderr)
      return transport
    }
    case 'streamable-http':
      return new StreamableHTTPClientTransport(new URL(config.url), {
        requestInit: { headers: config.headers },
        fetch: withMcpHeaders(hooks.negotiatedVersion),
      })
    case 'sse':
      // The SDK sends `requestInit` headers on the event stream and on every POST.
      return new SSEClientTransport(new URL(config.url), {
        requestInit: { headers: config.headers },
      })
  }
}
