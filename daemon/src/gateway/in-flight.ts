// The requests each gateway client has in flight, so that revoking its token cuts them: each
// one's connection is closed, and an answer made after the revocation is never sent.

import { jsonRpcError } from './request-body.js'

/** MCP's generic server error code, as the route uses for refusals. */
const REFUSED = -32000

/** How the route lets the gateway close a request's connection and hear that it closed. */
export interface RequestConnection {
  /** Closes the connection at once, whatever it is sending. */
  cut(): void
  /** Runs `listener` once the answer is done with, however it ended. */
  onClose(listener: () => void): void
}

/** One request in flight; `revoked` turns true when its client's token is revoked. */
export interface InFlightRequest {
  readonly revoked: boolean
}

interface Entry {
  revoked: boolean
  connection: RequestConnection | undefined
}

export class InFlight {
  private readonly byClient = new Map<string, Set<Entry>>()

  /** A request of `client` starts; it reads as revoked once the client's token is. */
  begin(client: string, connection: RequestConnection | undefined): InFlightRequest {
    const entry: Entry = { revoked: false, connection }
    const open = this.byClient.get(client) ?? new Set<Entry>()
    open.add(entry)
    this.byClient.set(client, open)
    const end = () => {
      open.delete(entry)
      if (open.size === 0 && this.byClient.get(client) === open) this.byClient.delete(client)
    }
    // Without a connection to follow (a request made in-process), the entry goes once answered.
    if (connection === undefined) queueMicrotask(end)
    else connection.onClose(end)
    return entry
  }

  /** Cuts every request of `client`. */
  cut(client: string): void {
    const open = this.byClient.get(client)
    this.byClient.delete(client)
    for (const entry of open ?? []) {
      entry.revoked = true
      entry.connection?.cut()
    }
  }
}

/** The answer to a request whose token was revoked while it ran: nothing of the request. */
export function revokedWhileRunning(): Response {
  const response = jsonRpcError(
    401,
    REFUSED,
    'this gateway token was revoked while the request ran; nothing of it is delivered',
  )
  response.headers.set('WWW-Authenticate', 'Bearer realm="ferry-gateway"')
  return response
}
