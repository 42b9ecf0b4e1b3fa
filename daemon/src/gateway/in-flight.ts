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

interface Entry {
  controller: AbortController
  connection: RequestConnection | undefined
}

export class InFlight {
  private readonly byClient = new Map<string, Set<Entry>>()

  /** A request of `client` starts: its signal fires when the client's token is revoked. */
  begin(client: string, connection: RequestConnection | undefined): AbortSignal {
    const entry: Entry = { controller: new AbortController(), connection }
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
    return entry.controller.signal
  }

  /** Cuts every request of `client`. */
  cut(client: string): void {
    const open = this.byClient.get(client)
    this.byClient.delete(client)
    for (const entry of open ?? []) {
      entry.controller.abort()
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
