// Binds the daemon's HTTP server on its loopback address, and the same port on the other loopback
// family. Browsers resolve `localhost`, the App sandbox's host name, to 127.0.0.1 or to ::1; with
// both held by the daemon no other local process can answer for `localhost:<port>`. Both servers
// run the same app, whose host checks decide what each name may reach.

import { serve } from '@hono/node-server'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export type Fetch = (request: Request, env: unknown) => Response | Promise<Response>

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

function listenOn(host: string, port: number, fetch: Fetch): Promise<Server> {
  return new Promise<Server>((resolve, reject) => {
    const server = serve({ fetch, port, hostname: host }, () => resolve(server as Server)) as Server
    server.once('error', reject)
  })
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()))
}

/** Port 0 picks a random port free on both families; any other port must be free on both. */
export async function listenLoopback(host: string, port: number, fetch: Fetch): Promise<Listening> {
  const other = otherLoopback(host)
  for (let attempt = 1; ; attempt++) {
    const server = await listenOn(host, port, fetch)
    const actual = (server.address() as AddressInfo).port
    try {
      return { server, twin: await listenOn(other, actual, fetch), port: actual }
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
