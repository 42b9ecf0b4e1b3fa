// Which sessions follow which resource of which server: a subscription per (session, server, uri),
// recorded as `resource.subscribed` / `resource.unsubscribed`, with the server asked once per
// (server, uri) however many sessions follow it; a server's `resources/updated` becomes a
// `resource.updated` event in each session that follows the resource.

import type { Ferry } from '../core/ferry.js'
import { ErrorCode, FerryError } from '../errors.js'
import type { Log } from '../log.js'
import type { ClientRef } from '../protocol/index.js'
import type { Session } from './session.js'
import type { SessionManager } from './session-manager.js'

function key(server: string, uri: string): string {
  return JSON.stringify([server, uri])
}

export class ResourceSubscriptions {
  /** Session ids by (server, uri). */
  private readonly followers = new Map<string, Set<string>>()

  constructor(
    private readonly ferry: Ferry,
    private readonly manager: SessionManager,
    private readonly log: Log,
  ) {
    ferry.follows.onUpdated((server, uri) => this.updated(server, uri))
  }

  /**
   * The session follows the resource from now on; the seq of the `resource.subscribed` event, or
   * null when it already followed it.
   */
  async subscribe(
    session: Session,
    server: string,
    uri: string,
    client: ClientRef,
  ): Promise<number | null> {
    const followers = this.followers.get(key(server, uri))
    if (followers?.has(session.id) === true) return null
    if (followers === undefined || followers.size === 0)
      await this.ferry.follows.follow(server, uri)
    const set = this.followers.get(key(server, uri)) ?? new Set<string>()
    set.add(session.id)
    this.followers.set(key(server, uri), set)
    // The event's type is one of two in its schema, so the stored type cannot be narrowed to it.
    const event: { seq: number } = await session.emit(
      { type: 'resource.subscribed', server, uri },
      client,
    )
    return event.seq
  }

  async unsubscribe(
    session: Session,
    server: string,
    uri: string,
    client: ClientRef,
  ): Promise<void> {
    const followers = this.followers.get(key(server, uri))
    if (followers?.delete(session.id) !== true) {
      throw new FerryError(
        ErrorCode.NotFound,
        `session ${session.id} does not follow ${uri} of server "${server}"`,
      )
    }
    if (followers.size === 0) {
      this.followers.delete(key(server, uri))
      await this.ferry.follows.unfollow(server, uri)
    }
    await session.emit({ type: 'resource.unsubscribed', server, uri }, client)
  }

  /**
   * Follows again what the session's transcript says it followed when the daemon last stopped; each
   * server subscribes to it when it connects.
   */
  restore(session: Session): void {
    const open = new Map<string, { server: string; uri: string }>()
    for (const event of session.eventsAfter(0)) {
      if (event.type === 'resource.subscribed') {
        open.set(key(event.server, event.uri), { server: event.server, uri: event.uri })
      } else if (event.type === 'resource.unsubscribed') open.delete(key(event.server, event.uri))
    }
    for (const [id, { server, uri }] of open) {
      const set = this.followers.get(id) ?? new Set<string>()
      set.add(session.id)
      this.followers.set(id, set)
      this.ferry.follows.followOnConnect(server, uri)
    }
  }

  private updated(server: string, uri: string): void {
    const followers = this.followers.get(key(server, uri))
    for (const id of [...(followers ?? [])]) {
      let session: Session
      try {
        session = this.manager.get(id)
      } catch {
        // A deleted session follows nothing.
        followers?.delete(id)
        if (followers?.size === 0) {
          this.followers.delete(key(server, uri))
          void this.ferry.follows.unfollow(server, uri)
        }
        continue
      }
      session.emit({ type: 'resource.updated', server, uri }, null).catch((error: unknown) => {
        this.log({ kind: 'session.write_failed', session: id, error: String(error) })
      })
    }
  }
}
