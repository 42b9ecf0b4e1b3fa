// Builds the SDK transport for one server config: stdio (its process marked and followed by
// `ServerProcess`), Streamable HTTP with Ferry's legacy request headers, or SSE; each delivers
// messages in the order the server sent them.

import {
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type OAuthClientProvider,
  type Transport,
} from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import type { RemoteServerConfig, ServerConfig } from '../config/types.js'
import type { HttpFailure } from './http-failures.js'
import { withMcpHeaders } from './mcp-headers.js'
import type { ObservedTransport } from './server-observer.js'
import type { ServerProcess } from './server-process.js'
import { SERVER_MARK_VAR } from './server-reaper.js'
import { SseFallbackTransport } from './sse-fallback-transport.js'
import { loopTurns } from '../turns.js'

export interface TransportHooks {
  /** Receives every stderr chunk of a stdio server (the session process, not the probe sibling). */
  onStderr: (chunk: Buffer) => void
  /** The protocol version the client negotiated, once known. */
  negotiatedVersion: () => string | undefined
  /** A bare `url` server answered Streamable HTTP with this 4xx; SSE is used instead. */
  onSseFallback?: (refused: HttpFailure) => void
  /** Sees every Streamable HTTP response (its status and headers), e.g. to read a 401's challenge. */
  onHttpResponse?: (response: Response) => void
  /** Sees (and may rewrite) every JSON-RPC message before it is sent, and each one received. */
  observe?: ObservedTransport
  /**
   * A remote server's OAuth credentials: the bearer token on each request, a silent refresh on a
   * 401. A needed sign-in or a step-up is thrown, never started here: a person starts it.
   */
  authProvider?: OAuthClientProvider
  /** A stdio server's process: its mark, its end, and the end of all it started. */
  serverProcess?: ServerProcess
}

/** Makes the transport a connection talks to its server over. */
export type TransportFactory = (config: ServerConfig, hooks: TransportHooks) => Transport

/** The transport a server's settings name (stdio, Streamable HTTP or SSE). */
export function createTransport(config: ServerConfig, hooks: TransportHooks): Transport {
  return withHooks(baseTransport(config, hooks), hooks)
}

/** Any transport, observed and delivering in the server's order, as a connection needs it. */
export function withHooks(transport: Transport, hooks: TransportHooks): Transport {
  return observed(inSentOrder(transport, hooks.observe), hooks.observe)
}

/** Every message the client sends passes `observe` first, whatever the transport underneath. */
function observed<T extends Transport>(transport: T, observe: ObservedTransport | undefined): T {
  if (observe === undefined) return transport
  const send = transport.send.bind(transport)
  transport.send = (message, options) => send(observe.outgoing(message), options)
  return transport
}

/**
 * What the server sent reaches the client in the server's order, its close and errors after the
 * messages before them, a turn's share at a time (`loopTurns`): a read of a hundred messages does
 * not hold back the daemon's other work until all of them are handled.
 *
 * The SDK runs a notification's handler one microtask after reading it, but settles a response at
 * once and forgets the request's progress handler. Progress read in the same chunk as the response
 * would be dropped; handing responses over one microtask late keeps the server's order. The
 * handlers the client installs are wrapped as they are set, so the transport stays the SDK's own
 * object.
 */
function inSentOrder<T extends Transport>(transport: T, observe?: ObservedTransport): T {
  /** A handler's throw goes to `onerror`, as the SDK's own transports report it. */
  const guarded = (deliver: () => void) => {
    try {
      deliver()
    } catch (error) {
      transport.onerror?.(error instanceof Error ? error : new Error(String(error)))
    }
  }
  const inTurn = (deliver: () => void) => loopTurns.run(() => guarded(deliver))
  wrapHandler(transport, 'onmessage', (handler) => (message, extra) => {
    observe?.incoming(message)
    inTurn(() => {
      if ('method' in message) handler(message, extra)
      else queueMicrotask(() => guarded(() => handler(message, extra)))
    })
  })
  wrapHandler(transport, 'onclose', (handler) => () => inTurn(handler))
  wrapHandler(transport, 'onerror', (handler) => (error) => {
    loopTurns.run(() => {
      try {
        handler(error)
      } catch {
        // An error handler's own throw has nowhere left to be reported.
      }
    })
  })
  return transport
}

interface TransportHandlers {
  onmessage: NonNullable<Transport['onmessage']>
  onclose: () => void
  onerror: (error: Error) => void
}

/** Puts `wrap` around the handler set on `key`, now and whenever it is set again. */
function wrapHandler<K extends keyof TransportHandlers>(
  transport: Transport,
  key: K,
  wrap: (handler: TransportHandlers[K]) => TransportHandlers[K],
): void {
  const current = transport[key] as TransportHandlers[K] | undefined
  let wrapped = current === undefined ? undefined : wrap(current)
  Object.defineProperty(transport, key, {
    configurable: true,
    enumerable: true,
    get: () => wrapped,
    set: (handler: TransportHandlers[K] | undefined) => {
      wrapped = handler === undefined ? undefined : wrap(handler)
    },
  })
}

function baseTransport(config: ServerConfig, hooks: TransportHooks): Transport {
  switch (config.transport) {
    case 'stdio': {
      const mark = hooks.serverProcess?.mark()
      const transport = new StdioClientTransport({
        command: config.command,
        args: config.args,
        env: mark === undefined ? config.env : { ...config.env, [SERVER_MARK_VAR]: mark },
        cwd: config.cwd,
        stderr: 'pipe',
      })
      hooks.serverProcess?.watch(transport, config.command)
      transport.stderr?.on('data', hooks.onStderr)
      if (hooks.observe !== undefined) probeObserved(transport, hooks.observe)
      return transport
    }
    case 'streamable-http': {
      const http = new StreamableHTTPClientTransport(new URL(config.url), {
        requestInit: { headers: config.headers },
        ...authOptions(hooks),
        fetch: withMcpHeaders(hooks.negotiatedVersion, async (url, init) => {
          const response = await fetch(url, init)
          hooks.onHttpResponse?.(response)
          return response
        }),
      })
      if (!config.sseFallback) return http
      return new SseFallbackTransport(
        http,
        () => sseTransport(config, hooks),
        (refused) => hooks.onSseFallback?.(refused),
      )
    }
    case 'sse':
      return sseTransport(config, hooks)
  }
}

/**
 * The SDK probes a stdio server's era on a short-lived sibling it builds with
 * `new transport.constructor(params)`; an own `constructor` makes that sibling's messages pass
 * `observe` too, so the trace shows the `server/discover` probe. The prototype stays the SDK's
 * own, which the SDK checks before probing on a sibling.
 */
function probeObserved(transport: StdioClientTransport, observe: ObservedTransport): void {
  function ObservedSibling(params: ConstructorParameters<typeof StdioClientTransport>[0]) {
    const sibling = new StdioClientTransport(params)
    return observed(inSentOrder(sibling, observe), observe)
  }
  Object.defineProperty(transport, 'constructor', { value: ObservedSibling, configurable: true })
}

function sseTransport(config: RemoteServerConfig, hooks: TransportHooks): Transport {
  // The SDK sends `requestInit` headers on the event stream and on every POST.
  return new SSEClientTransport(new URL(config.url), {
    requestInit: { headers: config.headers },
    ...(hooks.authProvider === undefined ? {} : { authProvider: hooks.authProvider }),
  })
}

function authOptions(hooks: TransportHooks) {
  return hooks.authProvider === undefined
    ? {}
    : { authProvider: hooks.authProvider, onInsufficientScope: 'throw' as const }
}
