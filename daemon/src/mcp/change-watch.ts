// What one connection is told about changes: `resources/updated` for the URIs Ferry follows, and (on
// a 2026-07-28 connection) the list changes. Legacy servers send them unprompted, and a resource is
// followed through `resources/subscribe`; modern ones send them only on a `subscriptions/listen`
// stream, of which a connection keeps exactly one carrying the union of what it follows, opened
// anew when that changes and when the server drops it.

import type { Client } from '@modelcontextprotocol/client'
import { ErrorCode, FerryError, errorMessage } from '../errors.js'
import type { Log } from '../log.js'

type Subscription = Awaited<ReturnType<Client['listen']>>
type Filter = Parameters<Client['listen']>[0]

const RELISTEN_START_MS = 200
const RELISTEN_CAP_MS = 30_000

export interface ChangeWatchDeps {
  server: string
  log: Log
  /** The URIs Ferry follows on this server now, over all sessions; subscribed again on connect. */
  wanted: () => readonly string[]
  onUpdated: (uri: string) => void
  /** Bounds each subscribe, unsubscribe and listen request. */
  timeoutMs: () => number
}

export class ChangeWatch {
  private client: Client | undefined
  private generation = 0
  private listening: Subscription | undefined
  /** The URIs subscribed on the current client (legacy) or carried by its listen stream (modern). */
  private readonly followed = new Set<string>()
  /** Subscribes, unsubscribes and listens run one at a time, in order. */
  private queue: Promise<unknown> = Promise.resolve()
  private relistenMs = RELISTEN_START_MS
  private relistenTimer: NodeJS.Timeout | undefined

  constructor(private readonly deps: ChangeWatchDeps) {}

  /**
   * Watches a client that just connected, before it counts as ready: follows what Ferry follows
   * (a legacy subscription that fails is logged and left out) and, on a modern connection, opens
   * the listen stream, whose failure fails the connect.
   */
  attach(client: Client): Promise<void> {
    this.detach()
    const generation = this.generation
    this.client = client
    client.setNotificationHandler('notifications/resources/updated', (notification) => {
      if (generation !== this.generation) return
      this.deps.onUpdated(notification.params.uri)
    })
    return this.serially(async () => {
      for (const uri of this.deps.wanted()) this.followed.add(uri)
      if (client.getProtocolEra() === 'modern') {
        await this.relisten(client, generation)
        return
      }
      if (!this.canSubscribe(client)) this.followed.clear()
      for (const uri of [...this.followed]) {
        try {
          await client.subscribeResource({ uri }, { timeout: this.deps.timeoutMs() })
        } catch (error) {
          this.followed.delete(uri)
          this.deps.log({
            kind: 'server.resubscribe_failed',
            server: this.deps.server,
            uri,
            error: errorMessage(error),
          })
        }
      }
    })
  }

  /** The client is gone: nothing more is delivered from it, and its stream is not reopened. */
  detach(): void {
    this.generation++
    this.client = undefined
    this.listening = undefined
    this.followed.clear()
    clearTimeout(this.relistenTimer)
    this.relistenMs = RELISTEN_START_MS
  }

  /** Follows `uri`; throws, following nothing new, when the server refuses or cannot. */
  subscribe(uri: string): Promise<void> {
    return this.serially(async () => {
      const client = this.current()
      if (!this.canSubscribe(client)) {
        throw new FerryError(
          ErrorCode.BadRequest,
          `server "${this.deps.server}" does not offer resource subscriptions (its capabilities lack resources.subscribe)`,
        )
      }
      if (this.followed.has(uri)) return
      if (client.getProtocolEra() !== 'modern') {
        await client.subscribeResource({ uri }, { timeout: this.deps.timeoutMs() })
        this.followed.add(uri)
        return
      }
      this.followed.add(uri)
      try {
        const honored = await this.relisten(client, this.generation)
        if (honored?.resourceSubscriptions?.includes(uri) !== true) {
          throw new FerryError(
            ErrorCode.UpstreamError,
            `server "${this.deps.server}" did not take the subscription to ${uri}`,
          )
        }
      } catch (error) {
        this.followed.delete(uri)
        throw error
      }
    })
  }

  /** Stops following `uri`; a server that refuses is logged, and the URI is not followed anyway. */
  unsubscribe(uri: string): Promise<void> {
    return this.serially(async () => {
      if (!this.followed.delete(uri)) return
      const client = this.client
      if (client === undefined) return
      try {
        if (client.getProtocolEra() === 'modern') await this.relisten(client, this.generation)
        else await client.unsubscribeResource({ uri }, { timeout: this.deps.timeoutMs() })
      } catch (error) {
        this.deps.log({
          kind: 'server.unsubscribe_failed',
          server: this.deps.server,
          uri,
          error: errorMessage(error),
        })
      }
    })
  }

  private current(): Client {
    if (this.client === undefined) {
      throw new FerryError(
        ErrorCode.ServerNotReady,
        `server "${this.deps.server}" is not connected`,
      )
    }
    return this.client
  }

  private canSubscribe(client: Client): boolean {
    return client.getServerCapabilities()?.resources?.subscribe === true
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work)
    this.queue = run.catch(() => {})
    return run
  }

  /** The filter of the one listen stream: the list changes the server declares, and the URIs. */
  private filter(client: Client): Filter {
    const capabilities = client.getServerCapabilities()
    return {
      ...(capabilities?.tools?.listChanged === true ? { toolsListChanged: true } : {}),
      ...(capabilities?.prompts?.listChanged === true ? { promptsListChanged: true } : {}),
      ...(capabilities?.resources?.listChanged === true ? { resourcesListChanged: true } : {}),
      ...(this.followed.size > 0 && this.canSubscribe(client)
        ? { resourceSubscriptions: [...this.followed] }
        : {}),
    }
  }

  /**
   * Opens the stream with the current filter, then closes the one it replaces, so no change falls
   * between the two (one may arrive twice). Returns what the server honoured.
   */
  private async relisten(client: Client, generation: number): Promise<Filter | undefined> {
    const previous = this.listening
    const filter = this.filter(client)
    if (Object.keys(filter).length === 0) {
      this.listening = undefined
      await previous?.close()
      return undefined
    }
    const opened = await client.listen(filter, { timeout: this.deps.timeoutMs() })
    if (generation !== this.generation) {
      await opened.close()
      return opened.honoredFilter
    }
    this.listening = opened
    void opened.closed.then((how) => this.onClosed(opened, generation, how))
    await previous?.close()
    return opened.honoredFilter
  }

  /** A stream the server ended or dropped is opened again, with backoff, while it is still ours. */
  private onClosed(closed: Subscription, generation: number, how: string): void {
    if (how === 'local' || closed !== this.listening || generation !== this.generation) return
    this.listening = undefined
    this.deps.log({ kind: 'server.listen_closed', server: this.deps.server, how })
    this.scheduleRelisten(generation)
  }

  private scheduleRelisten(generation: number): void {
    const delay = this.relistenMs
    this.relistenMs = Math.min(this.relistenMs * 2, RELISTEN_CAP_MS)
    this.relistenTimer = setTimeout(() => {
      const client = this.client
      if (client === undefined || generation !== this.generation) return
      this.serially(async () => {
        if (generation !== this.generation || this.listening !== undefined) return
        await this.relisten(client, generation)
        this.relistenMs = RELISTEN_START_MS
      }).catch((error: unknown) => {
        this.deps.log({
          kind: 'server.listen_failed',
          server: this.deps.server,
          error: errorMessage(error),
        })
        if (generation === this.generation && this.listening === undefined) {
          this.scheduleRelisten(generation)
        }
      })
    }, delay)
  }
}
