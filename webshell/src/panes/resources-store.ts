// The Resources pane's state for one server: its resources and templates, the one being shown
// (read from the server, or handed over from a tool result), and which ones the session follows.

import { signal, type ReadonlySignal } from '@preact/signals'
import type {
  CompletionResponse,
  ResourceInfo,
  ResourceReadResponse,
  ResourcesResponse,
  ResourceTemplateInfo,
} from '../../../daemon/src/protocol/index.js'
import type { PaneClient } from './pane-client.js'

export type Listing =
  | { state: 'loading' }
  | { state: 'ready'; resources: ResourceInfo[]; templates: ResourceTemplateInfo[] }
  | { state: 'failed'; message: string }

export type Shown =
  | { uri: string; from: 'server'; state: 'reading' }
  | { uri: string; from: 'server' | 'result'; state: 'read'; result: unknown }
  | { uri: string; from: 'server'; state: 'failed'; message: string }

export interface ResourcesStore {
  readonly server: string
  readonly listing: ReadonlySignal<Listing>
  readonly shown: ReadonlySignal<Shown | null>
  readonly followed: ReadonlySignal<ReadonlySet<string>>
  reload(): Promise<void>
  /** Reads `uri` from the server and shows it; a read asked for later wins over this one. */
  read(uri: string): Promise<void>
  /** Shows contents a tool result embedded, as the result gave them. */
  showEmbedded(uri: string, contents: unknown): void
  follow(uri: string, on: boolean): Promise<void>
  /** Completions for variable `name` of `template` typed as `value`, given the other values. */
  complete(
    template: string,
    name: string,
    value: string,
    others: Record<string, string>,
  ): Promise<CompletionResponse>
  /** Stops taking the session's events. */
  dispose(): void
}

export function createResourcesStore(client: PaneClient, server: string): ResourcesStore {
  const listing = signal<Listing>({ state: 'loading' })
  const shown = signal<Shown | null>(null)
  const followed = signal<ReadonlySet<string>>(new Set())
  let reads = 0
  const session = () => {
    const id = client.session()
    return { client: client.identity, ...(id === undefined ? {} : { session: id }) }
  }
  const store: ResourcesStore = {
    server,
    listing,
    shown,
    followed,
    async reload() {
      try {
        const all = await client.request<ResourcesResponse>(
          `/resources?server=${encodeURIComponent(server)}`,
        )
        listing.value = {
          state: 'ready',
          resources: all.resources.filter((resource) => resource.server === server),
          templates: all.templates.filter((template) => template.server === server),
        }
      } catch (error) {
        listing.value = { state: 'failed', message: (error as Error).message }
      }
    },
    async read(uri) {
      const read = ++reads
      shown.value = { uri, from: 'server', state: 'reading' }
      try {
        const answer = await client.request<ResourceReadResponse>('/resources/read', 'POST', {
          server,
          uri,
          ...session(),
        })
        if (read === reads) {
          shown.value = { uri, from: 'server', state: 'read', result: answer.result }
        }
      } catch (error) {
        if (read === reads) {
          shown.value = { uri, from: 'server', state: 'failed', message: (error as Error).message }
        }
      }
    },
    showEmbedded(uri, contents) {
      reads += 1
      shown.value = { uri, from: 'result', state: 'read', result: contents }
    },
    async follow(uri, on) {
      await client.request(on ? '/resources/subscribe' : '/resources/unsubscribe', 'POST', {
        server,
        uri,
        ...session(),
      })
      const next = new Set(followed.peek())
      if (on) next.add(uri)
      else next.delete(uri)
      followed.value = next
    },
    complete(template, name, value, others) {
      return client.request<CompletionResponse>('/completions', 'POST', {
        server,
        ref: { type: 'ref/resource', uri: template },
        argument: { name, value },
        context: { arguments: others },
      })
    },
    dispose: () => stopEvents(),
  }
  // The session's own record says what it follows and what changed: a followed resource on
  // screen is read again when the server says it changed.
  const stopEvents = client.onEvents((events) => {
    for (const event of events) {
      if (!('server' in event) || event.server !== server) continue
      if (event.type === 'resource.subscribed' || event.type === 'resource.unsubscribed') {
        const next = new Set(followed.peek())
        if (event.type === 'resource.subscribed') next.add(event.uri)
        else next.delete(event.uri)
        followed.value = next
      } else if (event.type === 'resource.updated') {
        const current = shown.peek()
        if (current?.uri === event.uri && current.from === 'server') void store.read(event.uri)
      }
    }
  })
  void store.reload()
  return store
}
