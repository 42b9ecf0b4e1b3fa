// Hands the store and the controller down to the components, and reads the store as React state.

import { createContext, useContext, useSyncExternalStore } from 'react'
import type { AttachController } from './attach-controller.js'
import type { AttachState, AttachStore } from './attach-store.js'

export interface Attach {
  store: AttachStore
  controller: AttachController
  /** Leaves the screen; the session keeps running. */
  detach: () => void
}

export const AttachContext = createContext<Attach | null>(null)

export function useAttach(): Attach {
  const attach = useContext(AttachContext)
  if (attach === null) throw new Error('useAttach needs an AttachContext provider')
  return attach
}

export function useAttachState(): AttachState {
  const { store } = useAttach()
  return useSyncExternalStore(store.subscribe, store.get)
}
