// Resource subscriptions of 2026-07-28 gateway clients. Such a client names the resources it
// wants to hear about in its `subscriptions/listen` request (`resourceSubscriptions`); the
// resources its token does not reach are dropped from the filter before the MCP SDK serves the
// stream (so its acknowledgement lists only what is followed), and the token's session follows
// the others, held as a legacy client's subscriptions are (resource-follows.ts), for as long as
// the stream is open. Each `resource.updated` of a followed resource is published once to the
// SDK's listen streams, which deliver it to those whose filter names its URI.

import { randomBytes } from 'node:crypto'
import type { ClientRef } from '../protocol/index.js'
import type { CatalogApi, SessionsApi } from '../service/ferry-service.js'
import type { ClientView } from './client-view.js'
import { gatewayClientRef } from './gateway-call.js'
import { ownerOf, resourceClaims } from './prompts-resources.js'
import type { GatewayFollows, Session } from './resource-follows.js'

/** A `subscriptions/listen` request as it arrives. */
interface ListenRequest {
  method: 'subscriptions/listen'
  params: { notifications: { resourceSubscriptions: unknown[] } & Record<string, unknown> }
}

/** Whether `body` is a `subscriptions/listen` request that names resources. */
export function isResourceListen(body: unknown): body is ListenRequest {
  if (body === null || typeof body !== 'object') return false
  const { method, params } = body as { method?: unknown; params?: { notifications?: unknown } }
  const notifications = params?.notifications as { resourceSubscriptions?: unknown } | undefined
  return method === 'subscriptions/listen' && Array.isArray(notifications?.resourceSubscriptions)
}

interface Followed {
  session: Session
  server: string
  uri: string
}

export class ListenFollows {
  /** Who follows what: each session's `server\0uri` with the streams that hold it. */
  private readonly streams = new Map<string, Set<string>>()
  private readonly stopListening = new Map<string, () => void>()

  constructor(
    private readonly deps: { catalog: CatalogApi; sessions: SessionsApi; follows: GatewayFollows },
    /** Publishes `notifications/resources/updated` for `uri` to the listen streams. */
    private readonly publish: (uri: string) => void,
  ) {}

  /**
   * The request as the SDK should serve it, its filter narrowed to the resources `view` reaches;
   * those are followed until `onClosed` runs the given release.
   */
  async open(
    request: ListenRequest,
    view: ClientView,
    onClosed: (release: () => void) => void,
  ): Promise<ListenRequest> {
    const claims = resourceClaims(this.deps.catalog, (name) => view.reaches(name))
    const asked = request.params.notifications.resourceSubscriptions
    const wanted = asked.filter((uri): uri is string => typeof uri === 'string')
    const owned = wanted.flatMap((uri) => {
      const server = ownerOf(claims, uri)
      return server === undefined ? [] : [{ uri, server }]
    })
    const client = gatewayClientRef(view)
    const stream = randomBytes(8).toString('hex')
    const session = await this.deps.sessions.resolve(view.grant.session ?? undefined)
    const held: Followed[] = []
    let closed = false
    onClosed(() => {
      closed = true
      for (const followed of held.splice(0)) this.release(stream, followed, client)
    })
    for (const { uri, server } of owned) {
      try {
        await this.deps.follows.hold(stream, session, server, uri, client)
      } catch {
        // A resource its server will not follow is left out of what the stream acknowledges.
        continue
      }
      const followed = { session, server, uri }
      if (closed) {
        this.release(stream, followed, client)
        continue
      }
      held.push(followed)
      this.track(stream, followed)
    }
    const uris = held.map((followed) => followed.uri)
    return {
      ...request,
      params: {
        ...request.params,
        notifications: { ...request.params.notifications, resourceSubscriptions: uris },
      },
    }
  }

  private track(stream: string, { session, server, uri }: Followed): void {
    const key = `${session.id}\0${server}\0${uri}`
    const holders = this.streams.get(key) ?? new Set<string>()
    holders.add(stream)
    this.streams.set(key, holders)
    if (this.stopListening.has(session.id)) return
    const stop = session.subscribe(session.info().headSeq, (event) => {
      if (event.type !== 'resource.updated') return
      if (this.streams.has(`${session.id}\0${event.server}\0${event.uri}`)) this.publish(event.uri)
    })
    this.stopListening.set(session.id, stop)
  }

  private release(stream: string, { session, server, uri }: Followed, client: ClientRef): void {
    const key = `${session.id}\0${server}\0${uri}`
    const holders = this.streams.get(key)
    holders?.delete(stream)
    if (holders?.size === 0) this.streams.delete(key)
    if (![...this.streams.keys()].some((held) => held.startsWith(`${session.id}\0`))) {
      this.stopListening.get(session.id)?.()
      this.stopListening.delete(session.id)
    }
    void this.deps.follows.release(stream, session, server, uri, client).catch(() => {})
  }
}
