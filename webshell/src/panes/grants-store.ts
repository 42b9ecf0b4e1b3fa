// The Grants pane's state for one session: the "always allow" grants in force as the daemon lists
// them, read again whenever the session's transcript says one was given or ended (by anyone), and
// their revocation in this tab's name.

import { signal, type ReadonlySignal } from '@preact/signals'
import type {
  GrantInfo,
  GrantRevokeResponse,
  GrantsResponse,
  TranscriptEvent,
} from '../../../daemon/src/protocol/index.js'
import type { PaneClient } from './pane-client.js'

export type GrantListing =
  | { state: 'loading' }
  | { state: 'ready'; grants: readonly GrantInfo[] }
  | { state: 'failed'; message: string }

export interface GrantsStore {
  readonly session: string
  readonly listing: ReadonlySignal<GrantListing>
  reload(): Promise<void>
  /** Ends the grants named, or every grant of the session with `'all'`; rejects with the reason. */
  revoke(which: readonly string[] | 'all'): Promise<GrantRevokeResponse>
  dispose(): void
}

/** Whether `event` gives or ends a grant: an "always" answer, or a revocation of any kind. */
export function changesGrants(event: TranscriptEvent): boolean {
  if (event.type === 'grant.revoked') return true
  return (
    event.type === 'confirmation.resolved' &&
    (event.outcome === 'allow_tool' || event.outcome === 'allow_server')
  )
}

export function createGrantsStore(client: PaneClient, session: string): GrantsStore {
  const listing = signal<GrantListing>({ state: 'loading' })
  let disposed = false
  // Only the newest read is shown: one started before a change may answer after one started after it.
  let reads = 0
  const reload = async () => {
    const read = ++reads
    try {
      const answer = await client.request<GrantsResponse>(
        `/grants?session=${encodeURIComponent(session)}`,
      )
      if (!disposed && read === reads) listing.value = { state: 'ready', grants: answer.grants }
    } catch (error) {
      if (!disposed && read === reads) {
        listing.value = { state: 'failed', message: (error as Error).message }
      }
    }
  }
  const stopEvents = client.onEvents((events) => {
    if (!events.some(changesGrants)) return
    // A revocation leaves the list at once; the daemon's list then says what else holds.
    const ended = new Set(
      events.flatMap((event) => (event.type === 'grant.revoked' ? [event.grantId] : [])),
    )
    const shown = listing.peek()
    if (shown.state === 'ready' && ended.size > 0) {
      listing.value = { state: 'ready', grants: shown.grants.filter((g) => !ended.has(g.id)) }
    }
    void reload()
  })
  const stopResumed = client.onResumed(() => void reload())
  void reload()
  return {
    session,
    listing,
    reload,
    revoke: (which) =>
      client.request<GrantRevokeResponse>('/grants/revoke', 'POST', {
        session,
        ...(which === 'all' ? { all: true } : { ids: which }),
        client: client.identity,
      }),
    dispose() {
      disposed = true
      stopEvents()
      stopResumed()
    },
  }
}
