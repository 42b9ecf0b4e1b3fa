// The frame of a pane that lists what a server offers: its heading with Refresh, and the listing
// while it loads or when it failed; what the listing shows is the pane's own.

import type { ComponentChildren, JSX } from 'preact'

export interface ListedPaneProps {
  testId: string
  /** The heading, e.g. `Prompts`. */
  title: string
  server: string
  /** What is listed, in lower case, e.g. `prompts`. */
  noun: string
  listing: { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready' }
  onRefresh: () => void
  /** Rendered only once the listing is ready. */
  ready: () => ComponentChildren
}

export function ListedPane(props: ListedPaneProps): JSX.Element {
  const { listing } = props
  return (
    <section
      class="server-pane"
      data-testid={props.testId}
      aria-label={`${props.title} of ${props.server}`}
    >
      <div class="pane-head">
        <h2>{props.title}</h2>
        <button type="button" onClick={props.onRefresh}>
          Refresh
        </button>
      </div>
      {listing.state === 'loading' && <p class="pane-empty">Loading {props.noun}…</p>}
      {listing.state === 'failed' && (
        <p class="error-text" role="alert">
          The {props.noun} could not be listed: {listing.message}
        </p>
      )}
      {listing.state === 'ready' && props.ready()}
    </section>
  )
}
