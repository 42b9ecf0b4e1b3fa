// The panes of the server picked in the navigation: a tab per registered pane (arrow keys move
// between them) and the chosen one below, loaded on first use. A pane made for one server at a
// time asks for a server while every server is picked; one about the session names the session.

import { useShell } from '../store/shell-context.js'
import type { ShellStore } from '../store/shell-store.js'
import { LazyPane } from './LazyPane.js'
import { PANES, type PaneEntry } from './registry.js'

function PickServer({ entry }: { entry: PaneEntry }) {
  const { store } = useShell()
  const servers = store.servers.value ?? []
  return (
    <div class="pick-server" data-testid="pick-server">
      <p>{entry.label} shows one server at a time. Pick one:</p>
      <ul>
        {servers.map((server) => (
          <li key={server.name}>
            <button type="button" onClick={() => (store.nav.server.value = server.name)}>
              {server.name}
            </button>
          </li>
        ))}
      </ul>
    </div>
  )
}

function sessionName(store: ShellStore): string {
  const id = store.session.value
  return store.sessions.value.find((session) => session.id === id)?.name ?? id ?? '…'
}

export function PaneArea() {
  const { store } = useShell()
  const server = store.nav.server.value
  const current = PANES.find((entry) => entry.id === store.nav.pane.value) ?? PANES[0]
  if (current === undefined) return null
  const select = (entry: PaneEntry | undefined) => {
    if (entry === undefined) return
    store.nav.pane.value = entry.id
    document.getElementById(`tab-${entry.id}`)?.focus()
  }
  const onKey = (event: KeyboardEvent) => {
    const at = PANES.indexOf(current)
    if (event.key === 'ArrowRight') select(PANES[(at + 1) % PANES.length])
    else if (event.key === 'ArrowLeft') select(PANES[(at - 1 + PANES.length) % PANES.length])
    else if (event.key === 'Home') select(PANES[0])
    else if (event.key === 'End') select(PANES[PANES.length - 1])
    else return
    event.preventDefault()
  }
  return (
    <section class="pane-area" aria-label={server === null ? 'Every server' : `Server ${server}`}>
      <div class="pane-tabs">
        <div class="pane-tablist" role="tablist" aria-label="Panes" onKeyDown={onKey}>
          {PANES.map((entry) => (
            <button
              type="button"
              role="tab"
              key={entry.id}
              id={`tab-${entry.id}`}
              data-testid={`tab-${entry.id}`}
              aria-selected={entry === current}
              aria-controls="pane"
              tabIndex={entry === current ? 0 : -1}
              onClick={() => select(entry)}
            >
              {entry.label}
            </button>
          ))}
        </div>
        <span class="pane-scope" data-testid="pane-scope">
          {current.perSession === true
            ? `session ${sessionName(store)}`
            : server === null
              ? 'all servers'
              : server}
        </span>
      </div>
      <div
        class="pane"
        id="pane"
        role="tabpanel"
        aria-labelledby={`tab-${current.id}`}
        data-testid="pane"
        data-pane={current.id}
      >
        {current.perServer === true && server === null ? (
          <PickServer entry={current} />
        ) : (
          <LazyPane key={current.id} entry={current} props={{ server }} />
        )}
      </div>
    </section>
  )
}
