// Hands the store and the controller down to the components.

import { createContext } from 'preact'
import { useContext } from 'preact/hooks'
import type { ShellController } from '../shell-controller.js'
import type { ShellStore } from './shell-store.js'

export interface Shell {
  store: ShellStore
  controller: ShellController
}

export const ShellContext = createContext<Shell | null>(null)

export function useShell(): Shell {
  const shell = useContext(ShellContext)
  if (shell === null) throw new Error('useShell needs a ShellContext provider')
  return shell
}
