// The resources followed on each server, over all sessions: subscribed on the server's connection
// (and again after each reconnect, which asks `uris`), and the updates the server sends about them.

import type { Connection } from '../mcp/connection.js'

type Listener = (server: string, uri: string) => void

export class ResourceFollows {
  private readonly followed = new Map<string, Set<string>>()
  private readonly listeners = new Set<Listener>()

  constructor(
    /** The connection of a ready server, or an error saying why there is none. */
    private readonly connection: (server: string) => Connection,
    /** The connection of a server, if it has one. */
    private readonly existing: (server: string) => Connection | undefined,
  ) {}

  /** What a connection to `server` subscribes to when it connects. */
  uris(server: string): string[] {
    return [...(this.followed.get(server) ?? [])]
  }

  /**
   * Follows a resource of a ready server, also across its reconnects, until `unfollow`. Throws,
   * following nothing, when the server refuses.
   */
  async follow(server: string, uri: string): Promise<void> {
    const connection = this.connection(server)
    const uris = this.followed.get(server) ?? new Set<string>()
    if (uris.has(uri)) return
    // Followed first, so a reconnect while the server is asked subscribes it again.
    uris.add(uri)
    this.followed.set(server, uris)
    try {
      await connection.subscribeResource(uri)
    } catch (error) {
      uris.delete(uri)
      if (uris.size === 0) this.followed.delete(server)
      throw error
    }
  }

  /** Follows a resource from the next connect of `server` on (a restored subscription). */
  followOnConnect(server: string, uri: string): void {
    const uris = this.followed.get(server) ?? new Set<string>()
    uris.add(uri)
    this.followed.set(server, uris)
  }

  /** Stops following a resource (a refusal by the server is logged, not thrown). */
  async unfollow(server: string, uri: string): Promise<void> {
    const uris = this.followed.get(server)
    if (uris?.delete(uri) !== true) return
    if (uris.size === 0) this.followed.delete(server)
    await this.existing(server)?.unsubscribeResource(uri)
  }

  /** Called when a server says a followed resource changed. */
  onUpdated(listener: Listener): void {
    this.listeners.add(listener)
  }

  /** The server said `uri` changed. */
  updated(server: string, uri: string): void {
    for (const listener of this.listeners) listener(server, uri)
  }
}
