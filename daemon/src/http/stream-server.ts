// The WebSocket stream: upgrades on `/api/stream` after the same Host, Origin and token checks as
// every other route (the token travels as a subprotocol, never in the URL), then one
// StreamConnection per client.

import type { IncomingMessage, Server } from 'node:http'
import type { Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'
import { ErrorCode } from '../errors.js'
import { GATEWAY_TOKEN_PREFIX } from '../gateway/token-store.js'
import type { Log } from '../log.js'
import { CLOSE_SHUTTING_DOWN, STREAM_AUTH_PREFIX, STREAM_PROTOCOL } from '../protocol/index.js'
import type { CatalogApi, SessionsApi } from '../service/ferry-service.js'
import type { ConnectionGuard } from './connection-guard.js'
import { errorBody } from './error-response.js'
import { tokenMatches } from './guards.js'
import { StreamConnection } from './stream-connection.js'

/** Frames larger than this close the socket with 1009. */
export const MAX_FRAME_BYTES = 1024 * 1024
const HEARTBEAT_MS = 15_000

export interface StreamDeps {
  catalog: CatalogApi
  sessions: SessionsApi
  token: string
  log: Log
  hosts: () => ReadonlySet<string>
  origins: () => ReadonlySet<string>
  /** Told about each upgrade that passed the token check. */
  connections?: ConnectionGuard
}

function refuse(socket: Duplex, status: number, reason: string, message?: string): void {
  if (message === undefined) {
    socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
    return
  }
  const body = JSON.stringify(errorBody(ErrorCode.Unauthorized, message))
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  )
}

function offeredProtocols(request: IncomingMessage): string[] {
  return (request.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
}

export function attachStream(server: Server, deps: StreamDeps): { close(): void } {
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_FRAME_BYTES,
    // Answer with the plain protocol name only: the token is never echoed.
    handleProtocols: (protocols) => (protocols.has(STREAM_PROTOCOL) ? STREAM_PROTOCOL : false),
  })
  const connections = new Set<StreamConnection>()

  server.on('upgrade', (request, socket, head) => {
    const path = (request.url ?? '').split('?')[0]
    if (path !== '/api/stream') return refuse(socket, 404, 'Not Found')
    const host = request.headers.host?.toLowerCase()
    if (host === undefined || !deps.hosts().has(host)) return refuse(socket, 403, 'Forbidden')
    const origin = request.headers.origin
    if (origin !== undefined && !deps.origins().has(origin)) return refuse(socket, 403, 'Forbidden')
    const offered = offeredProtocols(request)
    const auth = offered.find((protocol) => protocol.startsWith(STREAM_AUTH_PREFIX))
    const token = auth?.slice(STREAM_AUTH_PREFIX.length) ?? ''
    if (!offered.includes(STREAM_PROTOCOL) || !tokenMatches(token, deps.token)) {
      return refuse(
        socket,
        401,
        'Unauthorized',
        token.startsWith(GATEWAY_TOKEN_PREFIX)
          ? 'a gateway token opens /mcp only; the stream takes the admin token'
          : 'missing or invalid token',
      )
    }
    deps.connections?.authenticated(socket as Socket)
    wss.handleUpgrade(request, socket, head, (ws: WebSocket) => {
      const connection = new StreamConnection(
        ws,
        deps.sessions,
        deps.catalog,
        deps.log,
        socket as Socket,
      )
      connections.add(connection)
      ws.once('close', () => connections.delete(connection))
    })
  })

  const heartbeat = setInterval(() => {
    for (const connection of connections) connection.heartbeat()
  }, HEARTBEAT_MS)
  heartbeat.unref()

  return {
    close() {
      clearInterval(heartbeat)
      for (const connection of connections)
        connection.close(CLOSE_SHUTTING_DOWN, 'daemon shutting down')
      wss.close()
    },
  }
}
