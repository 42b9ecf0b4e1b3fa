// Where the person is: the server picked in the navigation (or every server) and the pane shown.

import { signal, type Signal } from '@preact/signals'
import type { ResourceRequest } from '../panes/resource-request.js'

/** The panes the navigation can show (see panes/registry.ts for each one). */
export type PaneId = 'tools' | 'prompts' | 'resources' | 'logs' | 'protocol' | 'grants'

export interface NavStore {
  /** The server whose parts the pane shows; null for every server. */
  server: Signal<string | null>
  pane: Signal<PaneId>
  /** A resource the Resources pane is asked to show (from a link or embedded resource). */
  resource: Signal<ResourceRequest | null>
  /** The tool search is asked for focus (the skip link, `/`); the Tools pane gives it and clears this. */
  searchWanted: Signal<boolean>
}

export function createNavStore(): NavStore {
  return {
    server: signal<string | null>(null),
    pane: signal<PaneId>('tools'),
    resource: signal<ResourceRequest | null>(null),
    searchWanted: signal(false),
  }
}
