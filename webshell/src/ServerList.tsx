// The servers column of the navigation: every server, or one, picked for the panes; per server a
// status pill, its era and protocol, tool count, the roots Ferry declares to it, the last error in
// plain words, the tail of its stderr on request, a reconnect button, and for a workspace server that waits for the person's
// approval, the entry as it would run and an Approve button that approves exactly that; for a
// remote server that needs an OAuth sign-in, a Sign in button that opens the authorization page in
// a new tab. While Ferry is not answering, no status is claimed.

import { useState } from 'preact/hooks'
import type { ServerInfo } from '../../daemon/src/protocol/index.js'
import { ApprovalDetails } from './ApprovalDetails.js'
import { count } from './format.js'
import { useShell } from './store/shell-context.js'
import { NOT_ANSWERING } from './store/shell-store.js'

const STDERR_TAIL = 20

function ServerRow({
  server,
  stale,
  picked,
}: {
  server: ServerInfo
  stale: boolean
  picked: boolean
}) {
  const { store, controller } = useShell()
  const [stderr, setStderr] = useState<string[] | null>(null)
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const run = async (action: () => Promise<unknown>) => {
    setBusy(true)
    setFailure(null)
    try {
      await action()
    } catch (error) {
      setFailure((error as Error).message)
    } finally {
      setBusy(false)
    }
  }
  const reconnect = () =>
    run(async () => {
      await controller.reconnectServer(server.name)
      setStderr(null)
    })
  // The digest of the description on screen: an entry changed since is refused, and the list then
  // shows it as it is now.
  const approve = (digest: string) => run(() => controller.approveEntry(server.name, digest))
  // The tab opens within the click (a page opened later is blocked as a pop-up), then goes to the
  // authorization page once the daemon has made it; the page cannot reach back into this one.
  const signIn = () =>
    run(async () => {
      const tab = window.open('', '_blank')
      if (tab !== null) tab.opener = null
      try {
        const started = await controller.startSignIn(server.name)
        if (tab === null) {
          setFailure(
            `The browser blocked the new tab; open ${started.authorizationUrl} to sign in.`,
          )
          return
        }
        tab.location.href = started.authorizationUrl
      } catch (error) {
        tab?.close()
        throw error
      }
      const outcome = await controller.finishSignIn(server.name)
      if (outcome.status !== 'ready' || outcome.error !== null) {
        setFailure(`Signing in did not work: ${outcome.error ?? outcome.status}`)
      }
    })
  const showStderr = () =>
    run(async () => setStderr((await controller.serverLogs(server.name)).slice(-STDERR_TAIL)))
  return (
    <li
      class={picked ? 'server server-picked' : 'server'}
      data-testid={`server-${server.name}`}
      data-status={server.status}
      data-stale={stale ? 'true' : undefined}
    >
      <button
        type="button"
        class="server-pick"
        aria-pressed={picked}
        title={picked ? 'Show every server' : `Show only ${server.name}`}
        onClick={() => (store.nav.server.value = picked ? null : server.name)}
      >
        {server.name}
      </button>{' '}
      {stale ? (
        <span class="pill pill-unknown" data-testid="server-status">
          unknown
        </span>
      ) : (
        <span class={`pill pill-${server.status}`} data-testid="server-status">
          {server.status}
        </span>
      )}
      {server.protocolVersion !== null && ` ${server.protocolVersion} (${server.era})`}
      {!stale && server.status === 'ready' && ` · ${count(server.toolCount, 'tool')}`}
      {stale && (
        <p class="server-stale" data-testid="server-stale">
          {NOT_ANSWERING}; last known {server.status}.
        </p>
      )}
      {server.roots !== null && server.roots.length > 0 && (
        <p
          class="server-roots"
          data-testid="server-roots"
          title="The directories Ferry tells this server of as its roots"
        >
          Roots:{' '}
          {server.roots === 'client'
            ? "the calling agent's, for its calls through the gateway"
            : server.roots.join(', ')}
        </p>
      )}
      {server.error !== null && (
        <p class="server-error" data-testid="server-error">
          {server.error}
        </p>
      )}
      {server.transport === 'stdio' && (
        <button
          type="button"
          disabled={stale}
          aria-label={`Show stderr of ${server.name}`}
          onClick={() => void showStderr()}
        >
          Show stderr
        </button>
      )}
      {server.status === 'needs_login' && (
        <button type="button" disabled={busy || stale} onClick={() => void signIn()}>
          {busy ? 'Signing in…' : `Sign in to ${server.name}`}
        </button>
      )}
      {server.approval !== null && <ApprovalDetails entry={server.approval} />}
      {server.approval !== null && (
        <button
          type="button"
          disabled={busy || stale}
          onClick={() => server.approval !== null && void approve(server.approval.digest)}
        >
          {busy ? 'Approving…' : 'Approve'}
        </button>
      )}
      {server.status !== 'disabled' &&
        server.status !== 'invalid' &&
        server.status !== 'awaiting_approval' && (
          <button
            type="button"
            disabled={busy || stale}
            aria-label={`${busy ? 'Reconnecting' : 'Reconnect'} ${server.name}`}
            onClick={() => void reconnect()}
          >
            {busy ? 'Reconnecting…' : 'Reconnect'}
          </button>
        )}
      {failure !== null && (
        <p class="server-error" role="alert">
          {failure}
        </p>
      )}
      {stderr !== null && (
        <pre data-testid="stderr">
          {stderr.length > 0 ? stderr.join('\n') : '(no stderr output)'}
        </pre>
      )}
    </li>
  )
}

export function ServerList() {
  const { store } = useShell()
  const servers = store.servers.value ?? []
  const stale = store.daemonDown.value || store.serversStale.value
  const picked = store.nav.server.value
  return (
    <nav class="panel servers" aria-labelledby="servers-heading">
      <h2 id="servers-heading">Servers</h2>
      <button
        type="button"
        class="server-pick server-all"
        aria-pressed={picked === null}
        data-testid="server-all"
        onClick={() => (store.nav.server.value = null)}
      >
        All servers
      </button>
      <ul>
        {servers.map((server) => (
          <ServerRow
            key={server.name}
            server={server}
            stale={stale}
            picked={picked === server.name}
          />
        ))}
      </ul>
    </nav>
  )
}

/** "Servers 4/5 ready": kept in the top bar so it is always in view. */
export function ServerSummary() {
  const { store } = useShell()
  const servers = store.servers.value ?? []
  if (store.daemonDown.value) {
    return (
      <span class="summary summary-trouble" data-testid="summary" data-stale="true">
        Servers: {NOT_ANSWERING}
      </span>
    )
  }
  const ready = servers.filter((server) => server.status === 'ready').length
  const trouble = servers.some(
    (server) =>
      server.status === 'failed' || server.status === 'invalid' || server.status === 'needs_login',
  )
  return (
    <span class={trouble ? 'summary summary-trouble' : 'summary'} data-testid="summary">
      Servers {ready}/{servers.length} ready
    </span>
  )
}
