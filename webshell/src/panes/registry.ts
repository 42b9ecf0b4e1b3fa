// The panes the navigation offers for a server (or every server), and for the session shown, in
// tab order. A pane is a component taking `PaneProps`; its entry says how to get it. `load` is a dynamic import, so a
// pane's code arrives the first time it is opened and the first visit does not pay for it. Only
// panes listed here are shown: adding one is its module plus one entry.

import type { ComponentType } from 'preact'
import type { PaneId } from '../store/nav-store.js'
import type { PaneProps } from './pane-props.js'
import { ToolsPane } from './ToolsPane.js'

export type { PaneId }
export type { PaneProps }

export interface PaneEntry {
  id: PaneId
  label: string
  /** Shows only for one server at a time: with every server picked, the person is asked to pick one. */
  perServer?: boolean
  /** About the session shown, whichever server is picked: the tab bar names the session. */
  perSession?: boolean
  /** The pane itself: at hand, or loaded on first use. */
  pane: { ready: ComponentType<PaneProps> } | { load: () => Promise<ComponentType<PaneProps>> }
}

export const PANES: readonly PaneEntry[] = [
  // The first pane on screen: part of the first load.
  { id: 'tools', label: 'Tools', pane: { ready: ToolsPane } },
  {
    id: 'prompts',
    label: 'Prompts',
    perServer: true,
    pane: { load: () => import('./PromptsPane.js').then((module) => module.PromptsPane) },
  },
  {
    id: 'resources',
    label: 'Resources',
    perServer: true,
    pane: { load: () => import('./ResourcesPane.js').then((module) => module.ResourcesPane) },
  },
  {
    id: 'logs',
    label: 'Logs',
    perServer: true,
    pane: { load: () => import('./LogsPane.js').then((module) => module.LogsPane) },
  },
  {
    id: 'protocol',
    label: 'Protocol',
    pane: { load: () => import('./ProtocolPane.js').then((module) => module.ProtocolPane) },
  },
  {
    id: 'grants',
    label: 'Grants',
    perSession: true,
    pane: { load: () => import('./GrantsPane.js').then((module) => module.GrantsPane) },
  },
]
