// The event kinds the person chose to hide from the transcript, kept in localStorage so the choice
// outlives the tab (it is the person's, not a session's).

import { signal, type ReadonlySignal } from '@preact/signals'
import { EVENT_KINDS, type EventKind } from '../transcript-filter.js'

const KEY = 'ferry.hiddenKinds'

export interface FilterStore {
  hidden: ReadonlySignal<ReadonlySet<EventKind>>
  setShown(kind: EventKind, shown: boolean): void
}

function stored(): Set<EventKind> {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? '[]') as unknown
    const known = new Set<string>(EVENT_KINDS.map((kind) => kind.id))
    return new Set(
      Array.isArray(saved)
        ? saved.filter((id): id is EventKind => typeof id === 'string' && known.has(id))
        : [],
    )
  } catch {
    return new Set()
  }
}

export function createFilterStore(): FilterStore {
  const hidden = signal<ReadonlySet<EventKind>>(stored())
  return {
    hidden,
    setShown(kind, shown) {
      const next = new Set(hidden.value)
      if (shown) next.delete(kind)
      else next.add(kind)
      hidden.value = next
      try {
        localStorage.setItem(KEY, JSON.stringify([...next]))
      } catch {
        // Storage refused (a private window's quota): the choice holds for this tab only.
      }
    },
  }
}
