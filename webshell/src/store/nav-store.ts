// Where the person is: the server picked in the navigation (or every server) and the pane shown.

import { signal, type Signal } from '@preact/signals'
import type { PaneId } from '../panes/registry.js'

export interface NavStore {
  /** The server whose parts the pane shows; null for every server. */
  server: Signal<string | null>
  pane: Signal<PaneId>
}

export function createNavStore(): NavStore {
  return { server: signal<string | null>(null), pane: signal<PaneId>('tools') }
}
