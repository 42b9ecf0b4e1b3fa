// The Grants pane: every "always allow" grant in force in the session shown (what it allows, who
// gave it, whose calls it covers, since when), following the transcript live, and a way to revoke
// one or all of them, recorded in the transcript as this tab's doing.

import type { JSX } from 'preact'
import { useEffect, useMemo, useState } from 'preact/hooks'
import type { ClientRef, GrantInfo } from '../../../daemon/src/protocol/index.js'
import { useShell } from '../store/shell-context.js'
import { clock } from '../format.js'
import { createGrantsStore, type GrantsStore } from './grants-store.js'
import { usePaneClient } from './use-pane-client.js'
import './panes.css'

/** What kind of client gave a grant, in words. */
const GIVER_KIND: Record<ClientRef['kind'], string> = {
  webshell: 'a person in the WebShell',
  cli: 'a person at a terminal (ferry call)',
  attach: 'a person at a terminal (ferry attach)',
  api: 'a REST API client',
  mcp: 'an agent, through the gateway',
}

/** What a grant allows, as its revoke button and the transcript name it. */
export function grantSubject(grant: GrantInfo): string {
  return grant.scope === 'server'
    ? `every tool of server "${grant.server}"`
    : `tool ${grant.tool ?? ''} of server "${grant.server}"`
}

/** About the session shown: the server picked in the navigation does not narrow it. */
export function GrantsPane(): JSX.Element | null {
  const client = usePaneClient()
  const session = useShell().store.session.value
  const store = useMemo(
    () => (session === undefined ? null : createGrantsStore(client, session)),
    [client, session],
  )
  useEffect(() => () => store?.dispose(), [store])
  return store === null ? null : <GrantsView key={store.session} store={store} />
}

function GrantsView({ store }: { store: GrantsStore }): JSX.Element {
  const listing = store.listing.value
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const revoke = async (which: readonly string[] | 'all') => {
    setBusy(true)
    setError(null)
    try {
      // The transcript's `grant.revoked` events take the rows away, here and in every other tab.
      await store.revoke(which)
    } catch (failure) {
      setError((failure as Error).message)
    } finally {
      setBusy(false)
    }
  }
  const grants = listing.state === 'ready' ? listing.grants : []
  return (
    <section class="server-pane" data-testid="grants-pane" aria-label="Grants in force">
      <div class="pane-head">
        <h2>Grants</h2>
        <span class="pane-count" data-testid="grants-count">
          {listing.state === 'ready' && `${grants.length} in force`}
        </span>
        <button type="button" onClick={() => void store.reload()}>
          Refresh
        </button>
        <button
          type="button"
          data-testid="revoke-all"
          disabled={busy || grants.length === 0}
          onClick={() => void revoke('all')}
        >
          Revoke all
        </button>
      </div>
      <p class="pane-empty">
        An “Always allow” answer lets the later calls it covers run without asking, while what it
        allowed stays the same. Once it is revoked, the next such call is asked about again.
      </p>
      {error !== null && (
        <p class="error-text" role="alert" data-testid="grants-error">
          {error}
        </p>
      )}
      {listing.state === 'loading' && <p class="pane-empty">Loading the grants…</p>}
      {listing.state === 'failed' && (
        <p class="error-text" role="alert">
          The grants could not be listed: {listing.message}
        </p>
      )}
      {listing.state === 'ready' && grants.length === 0 && (
        <p class="pane-empty" data-testid="grants-none">
          No grants in force in this session: every call that needs a confirmation is asked about.
        </p>
      )}
      {grants.length > 0 && (
        <table class="grants" data-testid="grants">
          <thead>
            <tr>
              <th scope="col">Always allows</th>
              <th scope="col">Given by</th>
              <th scope="col">Covers</th>
              <th scope="col">Since</th>
              <th scope="col">
                <span class="visually-hidden">Revoke</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {grants.map((grant) => (
              <GrantRow
                key={grant.id}
                grant={grant}
                busy={busy}
                onRevoke={() => void revoke([grant.id])}
              />
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}

function GrantRow(props: { grant: GrantInfo; busy: boolean; onRevoke: () => void }) {
  const { grant } = props
  const giver = grant.givenBy
  return (
    <tr
      data-testid="grant"
      data-grant-id={grant.id}
      data-scope={grant.scope}
      data-covers={grant.covers}
      data-given-by={giver.kind}
    >
      <td data-testid="grant-allows">
        {grant.scope === 'server' ? (
          <>
            Every tool of server <strong>{grant.server}</strong>
          </>
        ) : (
          <>
            Tool <code>{grant.tool}</code> <span class="who">on {grant.server}</span>
          </>
        )}
      </td>
      <td data-testid="grant-given-by">
        {giver.label}{' '}
        <span class={giver.kind === 'mcp' ? 'tag tag-agent' : 'who'}>{GIVER_KIND[giver.kind]}</span>
      </td>
      <td data-testid="grant-covers">
        {grant.covers === 'session'
          ? 'Every caller in this session'
          : `Only ${giver.label}’s own calls`}
      </td>
      <td>
        <time data-testid="grant-since" dateTime={grant.since} title={grant.since}>
          {clock(grant.since)}
        </time>
      </td>
      <td>
        <button
          type="button"
          class="deny"
          disabled={props.busy}
          aria-label={`Revoke the grant for ${grantSubject(grant)}`}
          onClick={props.onRevoke}
        >
          Revoke
        </button>
      </td>
    </tr>
  )
}
