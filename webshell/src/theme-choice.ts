// The person's choice of palette: light, dark, or the system's (the default), kept in this
// browser's localStorage across loads and applied to the page as its colour scheme, which every
// `light-dark()` colour of the stylesheets follows.

import type { Theme } from './apps/theme.js'

export type ThemeChoice = 'system' | Theme

const KEY = 'ferry.theme'

export function storedTheme(): ThemeChoice {
  try {
    const stored = localStorage.getItem(KEY)
    return stored === 'light' || stored === 'dark' ? stored : 'system'
  } catch {
    // Storage refused (a privacy setting): the system's palette, every time.
    return 'system'
  }
}

/** Shows the page in `choice` and keeps it for the next load. */
export function applyTheme(choice: ThemeChoice, keep = true): void {
  const root = document.documentElement
  if (choice === 'system') delete root.dataset.theme
  else root.dataset.theme = choice
  if (!keep) return
  try {
    if (choice === 'system') localStorage.removeItem(KEY)
    else localStorage.setItem(KEY, choice)
  } catch {
    // Not kept: this load still shows it.
  }
}

/** The palette the page is drawn in: the choice, or the system's. */
export function shownTheme(choice: ThemeChoice, systemDark: boolean): Theme {
  return choice === 'system' ? (systemDark ? 'dark' : 'light') : choice
}
