// Bounds what connections that never showed the token can hold: at most a fixed number of them
// across the daemon's listeners (a new one pushes out the oldest idle one, so a flood of idle
// connections cycles out instead of locking the CLI out), each closed once idle for a few seconds.

import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { Log } from '../log.js'

/** Connections without a token at once; the WebShell's page load and App frames need a handful. */
export const MAX_UNAUTHENTICATED = 64
/** How long a connection without a token may sit with no request in progress. */
export const UNAUTHENTICATED_IDLE_MS = 5_000

export interface ConnectionGuard {
  /** Tracks every connection `server` accepts until it authenticates or closes. */
  watch(server: Server): void
  /** The socket carried a request (or upgrade) that passed the token check: it is no longer bounded. */
  authenticated(socket: Socket): void
  close(): void
}

interface Pending {
  socket: Socket
  /** Requests on this socket whose response has not finished. */
  busy: number
  timer: NodeJS.Timeout | undefined
}

export function connectionGuard(log: Log, max = MAX_UNAUTHENTICATED): ConnectionGuard {
  // Insertion order is age: the first entry is the oldest connection.
  const pending = new Map<Socket, Pending>()
  let evicted = 0

  const forget = (socket: Socket) => {
    const entry = pending.get(socket)
    if (entry === undefined) return
    clearTimeout(entry.timer)
    pending.delete(socket)
  }
  const arm = (entry: Pending) => {
    clearTimeout(entry.timer)
    if (entry.busy > 0) return
    entry.timer = setTimeout(() => {
      forget(entry.socket)
      entry.socket.destroy()
    }, UNAUTHENTICATED_IDLE_MS)
    entry.timer.unref()
  }
  const evictOldest = () => {
    let victim: Pending | undefined
    for (const entry of pending.values()) {
      victim ??= entry
      if (entry.busy === 0) {
        victim = entry
        break
      }
    }
    if (victim === undefined) return
    forget(victim.socket)
    victim.socket.destroy()
    // One line per burst, not per connection: a flood must not flood the log as well.
    if (evicted++ % max === 0) log({ kind: 'http.unauthenticated_evicted', count: evicted })
  }

  return {
    watch(server) {
      server.on('connection', (socket: Socket) => {
        while (pending.size >= max) evictOldest()
        const entry: Pending = { socket, busy: 0, timer: undefined }
        pending.set(socket, entry)
        arm(entry)
        socket.once('close', () => forget(socket))
      })
      server.on('request', (request: IncomingMessage, response: ServerResponse) => {
        const entry = pending.get(request.socket as Socket)
        if (entry === undefined) return
        entry.busy++
        clearTimeout(entry.timer)
        response.once('close', () => {
          entry.busy--
          if (pending.get(entry.socket) === entry) arm(entry)
        })
      })
    },
    authenticated: forget,
    close() {
      for (const entry of pending.values()) clearTimeout(entry.timer)
      pending.clear()
    },
  }
}
