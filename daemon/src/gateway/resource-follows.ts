// Resource subscriptions of legacy gateway clients. A client's `resources/subscribe` makes its
// token's session follow the resource (recorded as the client's, as any subscription is), and the
// session's `resource.updated` events reach the client as `notifications/resources/updated`. The
// follow ends when the last gateway client that holds it unsubscribes or its session ends, unless
// the session followed the resource before any of them did (then it is the person's own).

import type { ClientRef } from '../protocol/index.js'
import type { SessionsApi } from '../service/ferry-service.js'

/** A session as the service gives it. */
export type Session = Awaited<ReturnType<SessionsApi['resolve']>>

function key(session: string, server: string, uri: string): string {
  return JSON.stringify([session, server, uri])
}

interface Held {
  /** The legacy sessions that subscribed. */
  clients: Set<string>
  /** Whether a gateway client started the follow (and so the last of them ends it). */
  made: Promise<boolean>
}

export class GatewayFollows {
  private readonly held = new Map<string, Held>()

  constructor(private readonly sessions: SessionsApi) {}

  /** `client` (a legacy session id) follows the resource through `session`. */
  async hold(client: string, session: Session, server: string, uri: string, by: ClientRef) {
    const id = key(session.id, server, uri)
    let held = this.held.get(id)
    if (held === undefined) {
      const made = this.sessions
        .subscribeResource(session, server, uri, by)
        .then((seq) => seq !== null)
      held = { clients: new Set(), made }
      this.held.set(id, held)
      made.catch(() => this.held.delete(id))
    }
    held.clients.add(client)
    try {
      await held.made
    } catch (error) {
      held.clients.delete(client)
      throw error
    }
  }

  /** `client` no longer follows it; true when it did. */
  async release(
    client: string,
    session: Session,
    server: string,
    uri: string,
    by: ClientRef,
  ): Promise<boolean> {
    const id = key(session.id, server, uri)
    const held = this.held.get(id)
    if (held?.clients.delete(client) !== true) return false
    if (held.clients.size > 0) return true
    this.held.delete(id)
    if (await held.made.catch(() => false)) {
      await this.sessions.unsubscribeResource(session, server, uri, by)
    }
    return true
  }
}
