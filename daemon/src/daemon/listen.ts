// Binds the daemon's HTTP server on its loopback address, and the same port on the other loopback
// family. Browsers resolve `localhost`, the App sandbox's host name, to 127.0.0.1 or to ::1; with
// both held by the daemon no other local process can answer for `localhost:<port>`. The second
// server runs its own app, which answers the sandbox host name only.

import { serve } from '@hono/node-server'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export type Fetch = (request: Request, env: unknown) => Response | Promise<Response>

export interface Handlers {
  /** The app on the configured address: WebShell, API and sandbox host name. */
  primary: Fetch
  /** The app on the other loopback family, where only `localhost` may lead. */
  twin: Fetch
  /** Called with each server as it starts listening, before any connection is accepted. */
  onServer?: (server: Server) => void
}

/** Headers must arrive within this; a request's body within the next. */
export const HEADERS_TIMEOUT_MS = 10_000
export const REQUEST_TIMEOUT_MS = 30_000

export interface Listening {
  /** The server on the configured address; WebSocket upgrades are attached to it. */
  server: Server
  /** The same port on the other loopback family; absent where that family does not exist. */
  twin: Server | undefined
  port: number
}

/** Attempts at a random port before giving up on finding one free on both families. */
const RANDOM_PORT_ATTEMPTS = 5

export function otherLoopback(host: string): string {
  return host === '::1' ? '127.0.0.1' : '::1'
}

function listenOn(
  host: string,
  port: number,
  fetch: Fetch,
  onServer: Handlers['onServer'],
): Promise<Server> {
  return new Promise<Server>((resolve, reject) => {
    const server = serve(
      {
        fetch,
        port,
        hostname: host,
        // Slow headers and bodies are cut here; a long answer (an NDJSON call, the stream) is not
        // bounded by these, as it is the response that takes time.
        serverOptions: {
          headersTimeout: HEADERS_TIMEOUT_MS,
          requestTimeout: REQUEST_TIMEOUT_MS,
          connectionsCheckingInterval: 1_000,
        },
      },
      () => resolve(server as Server),
    ) as Server
    onServer?.(server)
    server.once('error', reject)
  })
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve())
    server.closeAllConnections()
  })
}

/** Port 0 picks a random port free on both families; any other port must be free on both. */
export async function listenLoopback(
  host: string,
  port: number,
  handlers: Handlers,
): Promise<Listening> {
  const other = otherLoopback(host)
  for (let attempt = 1; ; attempt++) {
    const server = await listenOn(host, port, handlers.primary, handlers.onServer)
    const actual = (server.address() as AddressInfo).port
    try {
      const twin = await listenOn(other, actual, handlers.twin, handlers.onServer)
      return { server, twin, port: actual }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      // No such family on this machine: a browser cannot reach it either.
      if (code === 'EADDRNOTAVAIL' || code === 'EAFNOSUPPORT') {
        return { server, twin: undefined, port: actual }
      }
      await closeServer(server)
      if (port !== 0 || attempt >= RANDOM_PORT_ATTEMPTS) {
        throw new Error(
          `port ${actual} is taken on ${other} by another process (${code ?? String(error)}); ` +
            `browsers may reach the App sandbox, localhost:${actual}, on either loopback address, ` +
            'so Ferry needs the port on both: start it on another port',
          { cause: error },
        )
      }
    }
  }
}
