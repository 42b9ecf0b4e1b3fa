// Bounds the connections that never showed the token, across the daemon's listeners: each must bring
// a complete request within seconds, and past a count bound the one that has waited longest for its
// request goes, so a flood of idle or slow connections cycles out while fresh clients get through.

import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { floodLine, type Log } from '../log.js'

/** Connections without a token at once, at most: room for bursts of hundreds of fresh clients. */
export const MAX_UNAUTHENTICATED = 1024
/** The bound under the lowest open-file limits: a WebShell's page load and App frames fit. */
export const MIN_UNAUTHENTICATED = 16
/** How long a connection without a token may take to bring a complete request. */
export const UNAUTHENTICATED_IDLE_MS = 5_000

/**
 * The bound for a process allowed `openFiles` descriptors: a quarter of them, so connections that
 * never show a token leave the rest to clients that do, to session files and to server processes.
 */
export function unauthenticatedBound(openFiles: number | undefined): number {
  if (openFiles === undefined) return MAX_UNAUTHENTICATED
  return Math.min(MAX_UNAUTHENTICATED, Math.max(MIN_UNAUTHENTICATED, Math.floor(openFiles / 4)))
}

export interface GuardOptions {
  max?: number
  idleMs?: number
  /** The clock of the eviction line's rate limit. */
  now?: () => number
}

export interface ConnectionGuard {
  /** Tracks every connection `server` accepts until it authenticates or closes. */
  watch(server: Server): void
  /** The socket carried a request (or upgrade) that passed the token check: it is no longer bounded. */
  authenticated(socket: Socket): void
  close(): void
}

interface Tracked {
  socket: Socket
  /** Requests on this socket whose response has not finished. */
  busy: number
  timer: NodeJS.Timeout | undefined
}

export function connectionGuard(log: Log, options: GuardOptions = {}): ConnectionGuard {
  const max = options.max ?? MAX_UNAUTHENTICATED
  const idleMs = options.idleMs ?? UNAUTHENTICATED_IDLE_MS
  // Insertion order is how long each has waited for a complete request: first, the longest.
  const waiting = new Map<Socket, Tracked>()
  // A request in progress is never cut short by newcomers.
  const working = new Map<Socket, Tracked>()
  const evicted = floodLine(
    log,
    { kind: 'http.unauthenticated_evicted', bound: max },
    { now: options.now },
  )

  const forget = (socket: Socket) => {
    const entry = waiting.get(socket) ?? working.get(socket)
    if (entry === undefined) return
    clearTimeout(entry.timer)
    waiting.delete(socket)
    working.delete(socket)
  }
  const drop = (socket: Socket) => {
    forget(socket)
    socket.destroy()
  }
  const wait = (entry: Tracked) => {
    waiting.set(entry.socket, entry)
    entry.timer = setTimeout(() => drop(entry.socket), idleMs)
    entry.timer.unref()
  }
  /** Makes room for one more; false when every counted connection has a request in progress. */
  const makeRoom = (): boolean => {
    while (waiting.size + working.size >= max) {
      const longest = waiting.keys().next()
      if (longest.done === true) return false
      drop(longest.value)
      evicted()
    }
    return true
  }

  return {
    watch(server) {
      server.on('connection', (socket: Socket) => {
        if (!makeRoom()) {
          socket.destroy()
          evicted()
          return
        }
        wait({ socket, busy: 0, timer: undefined })
        socket.once('close', () => forget(socket))
      })
      server.on('request', (request: IncomingMessage, response: ServerResponse) => {
        const socket = request.socket as Socket
        const entry = waiting.get(socket) ?? working.get(socket)
        if (entry === undefined) return
        entry.busy++
        clearTimeout(entry.timer)
        waiting.delete(socket)
        working.set(socket, entry)
        response.once('close', () => {
          entry.busy--
          // Waiting again, from now, for its next request, unless it authenticated meanwhile.
          if (entry.busy > 0 || working.get(socket) !== entry) return
          working.delete(socket)
          wait(entry)
        })
      })
    },
    authenticated: forget,
    close() {
      for (const entry of [...waiting.values(), ...working.values()]) clearTimeout(entry.timer)
      waiting.clear()
      working.clear()
      evicted.flush()
    },
  }
}
