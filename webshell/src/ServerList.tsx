// The servers panel: a status pill per server, its era and protocol, tool count, the last error in
// plain words, the tail of its stderr on request, a reconnect button, and an approve button for a
// workspace server that waits for the person's approval.

import { useState } from 'preact/hooks'
import type {
  LogsResponse,
  ServerInfo,
  WorkspaceApproveResponse,
} from '../../daemon/src/protocol/index.js'
import { api } from './api.js'

const STDERR_TAIL = 20

function ServerRow({
  server,
  token,
  onChange,
}: {
  server: ServerInfo
  token: string
  onChange: () => void
}) {
  const [stderr, setStderr] = useState<string[] | null>(null)
  const [busy, setBusy] = useState(false)
  const name = encodeURIComponent(server.name)
  const reconnect = async () => {
    setBusy(true)
    try {
      await api<ServerInfo[]>(token, `/servers/${name}/reconnect`, 'POST')
      onChange()
      setStderr(null)
    } finally {
      setBusy(false)
    }
  }
  const [failure, setFailure] = useState<string | null>(null)
  const approve = async () => {
    setBusy(true)
    setFailure(null)
    try {
      await api<WorkspaceApproveResponse>(token, '/workspace/approve', 'POST', {
        servers: [server.name],
      })
      onChange()
    } catch (error) {
      setFailure((error as Error).message)
    } finally {
      setBusy(false)
    }
  }
  const showStderr = async () =>
    setStderr((await api<LogsResponse>(token, `/servers/${name}/logs`)).lines.slice(-STDERR_TAIL))
  return (
    <li data-testid={`server-${server.name}`} data-status={server.status}>
      <strong>{server.name}</strong>{' '}
      <span class={`pill pill-${server.status}`}>{server.status}</span>
      {server.protocolVersion !== null && ` ${server.protocolVersion} (${server.era})`}
      {server.status === 'ready' && ` · ${server.toolCount} tools`}
      {server.error !== null && (
        <p class="server-error" data-testid="server-error">
          {server.error}
        </p>
      )}
      {server.transport === 'stdio' && (
        <button type="button" onClick={() => void showStderr()}>
          Show stderr
        </button>
      )}
      {server.status === 'awaiting_approval' && (
        <button type="button" disabled={busy} onClick={() => void approve()}>
          {busy ? 'Approving…' : 'Approve'}
        </button>
      )}
      {failure !== null && (
        <p class="server-error" role="alert">
          {failure}
        </p>
      )}
      {server.status !== 'disabled' &&
        server.status !== 'invalid' &&
        server.status !== 'awaiting_approval' && (
          <button type="button" disabled={busy} onClick={() => void reconnect()}>
            {busy ? 'Reconnecting…' : 'Reconnect'}
          </button>
        )}
      {stderr !== null && (
        <pre data-testid="stderr">
          {stderr.length > 0 ? stderr.join('\n') : '(no stderr output)'}
        </pre>
      )}
    </li>
  )
}

export function ServerList({
  servers,
  token,
  onChange,
}: {
  servers: ServerInfo[]
  token: string
  onChange: () => void
}) {
  return (
    <section class="panel servers" aria-labelledby="servers-heading">
      <h2 id="servers-heading">Servers</h2>
      <ul>
        {servers.map((server) => (
          <ServerRow key={server.name} server={server} token={token} onChange={onChange} />
        ))}
      </ul>
    </section>
  )
}

/** "Servers 4/5 ready": kept in the top bar so it is always in view. */
export function ServerSummary({ servers }: { servers: ServerInfo[] }) {
  const ready = servers.filter((server) => server.status === 'ready').length
  const trouble = servers.some(
    (server) => server.status === 'failed' || server.status === 'invalid',
  )
  return (
    <span class={trouble ? 'summary summary-trouble' : 'summary'} data-testid="summary">
      Servers {ready}/{servers.length} ready
    </span>
  )
}
