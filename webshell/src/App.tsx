// The WebShell's frame: the store and controller made once per token and handed down through
// context, then the layout (a skip link to the tool search, top bar, banners, servers, panes, the
// transcript at the centre with its question bar). Without a token it says how to get one; a
// refused token gets a clear message.

import { useEffect, useState } from 'preact/hooks'
import type { Connection } from './stream.js'
import { QuestionBar } from './questions/QuestionBar.js'
import { QuestionNotice } from './questions/QuestionNotice.js'
import { PaneArea } from './panes/PaneArea.js'
import { ServerList, ServerSummary } from './ServerList.js'
import { SessionBar } from './SessionBar.js'
import { ShellBanners } from './ShellBanners.js'
import { createShellController } from './shell-controller.js'
import { ShellContext, useShell, type Shell } from './store/shell-context.js'
import { createShellStore } from './store/shell-store.js'
import { ThemePicker } from './ThemePicker.js'
import { sessionInUrl } from './token.js'
import { LiveTranscript } from './Transcript.js'

function NoToken() {
  return (
    <main class="standalone" data-testid="no-token">
      <h1>Ferry</h1>
      <p>
        Open Ferry from a terminal with <code>ferry open</code>; it opens this page with the key it
        needs.
      </p>
    </main>
  )
}

const CONNECTION_TEXT: Record<Connection['state'], string> = {
  live: 'Live',
  connecting: 'Connecting…',
  reconnecting: 'Reconnecting…',
  refused: 'Disconnected',
}

function ConnectionBadge() {
  const connection = useShell().store.connection.value
  const text =
    connection.state === 'reconnecting'
      ? `Reconnecting (${connection.why})…`
      : CONNECTION_TEXT[connection.state]
  return (
    <span
      class={`connection connection-${connection.state}`}
      data-testid="connection"
      data-state={connection.state}
      role="status"
    >
      {text}
    </span>
  )
}

function Layout() {
  const { store, controller } = useShell()
  const failure = store.failure.value
  if (failure !== null && store.servers.value === null) {
    return (
      <main class="standalone">
        <h1>Ferry</h1>
        <p role="alert" data-testid="error">
          {failure}
        </p>
      </main>
    )
  }
  if (store.servers.value === null) return <main aria-busy="true">Loading…</main>
  return (
    <div class="shell">
      {/* The first Tab stop, shown when focused: past the servers and panes to the search. */}
      <a
        class="skip-link"
        href="#tool-search"
        data-testid="skip-to-search"
        onClick={(event) => {
          event.preventDefault()
          controller.focusToolSearch()
        }}
      >
        Skip to tool search
      </a>
      <header class="topbar">
        <h1>Ferry</h1>
        <SessionBar />
        <ServerSummary />
        <ConnectionBadge />
        <ThemePicker />
      </header>
      <ShellBanners />
      <aside class="sidebar">
        <ServerList />
      </aside>
      <div class="panes">
        <PaneArea />
      </div>
      <main class="main">
        <h2 class="visually-hidden">Transcript</h2>
        <LiveTranscript />
        <QuestionNotice />
        <QuestionBar />
      </main>
    </div>
  )
}

function ShellApp({ token }: { token: string }) {
  const [shell] = useState<Shell>(() => {
    const store = createShellStore(token, sessionInUrl())
    return { store, controller: createShellController(store) }
  })
  useEffect(() => {
    shell.controller.start()
    return () => shell.controller.stop()
  }, [shell])
  return (
    <ShellContext.Provider value={shell}>
      <Layout />
    </ShellContext.Provider>
  )
}

export function App({ token }: { token: string | null }) {
  return token === null ? <NoToken /> : <ShellApp token={token} />
}
