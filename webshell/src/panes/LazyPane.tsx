// One pane of the registry on screen: shown at once when its code is at hand, else loaded (once
// per page) with a loading line meanwhile. A failed load says so; browsers keep a failed module
// import failed, so trying again means reloading the page.

import type { ComponentType } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import type { PaneEntry, PaneProps } from './registry.js'

const loaded = new Map<string, ComponentType<PaneProps>>()

function paneAtHand(entry: PaneEntry): ComponentType<PaneProps> | undefined {
  return 'ready' in entry.pane ? entry.pane.ready : loaded.get(entry.id)
}

export function LazyPane({ entry, props }: { entry: PaneEntry; props: PaneProps }) {
  const [, setLoaded] = useState<ComponentType<PaneProps> | undefined>(undefined)
  const [failure, setFailure] = useState<string | null>(null)
  const Pane = paneAtHand(entry)
  useEffect(() => {
    if (Pane !== undefined || !('load' in entry.pane)) return
    let gone = false
    entry.pane.load().then(
      (component) => {
        loaded.set(entry.id, component)
        if (!gone) setLoaded(() => component)
      },
      (error: unknown) => {
        if (!gone) setFailure((error as Error).message)
      },
    )
    return () => {
      gone = true
    }
  }, [entry, Pane])
  if (Pane !== undefined) return <Pane {...props} />
  if (failure !== null) {
    return (
      <div class="pane-failure" data-testid="pane-failure">
        <p class="error-text" role="alert">
          The {entry.label} pane could not load ({failure}). Reload the page to try again.
        </p>
      </div>
    )
  }
  return (
    <p class="pane-loading" data-testid="pane-loading" aria-busy="true">
      Loading {entry.label}…
    </p>
  )
}
