// The host context an App is given and kept told about: theme, the WebShell's palette as ext-apps'
// style variables (read back from the page as drawn, so in the current theme's colours), locale,
// time zone, platform, input device and the display modes on offer.

import type {
  McpUiHostContext,
  McpUiHostStyles,
  McpUiStyles,
  McpUiStyleVariableKey,
} from '@modelcontextprotocol/ext-apps/app-bridge'
import type { Theme } from './theme.js'
import { HOST_DISPLAY_MODES } from './display-modes.js'

/** The WebShell's own custom properties (webshell/src/style.css) behind each App variable. */
const PALETTE: [McpUiStyleVariableKey, string][] = [
  ['--color-background-primary', '--bg'],
  ['--color-background-secondary', '--panel'],
  ['--color-background-tertiary', '--panel'],
  ['--color-background-inverse', '--fg'],
  ['--color-text-primary', '--fg'],
  ['--color-text-secondary', '--muted'],
  ['--color-text-tertiary', '--muted'],
  ['--color-text-inverse', '--bg'],
  ['--color-text-info', '--accent'],
  ['--color-text-success', '--ok'],
  ['--color-text-warning', '--warn'],
  ['--color-text-danger', '--danger'],
  ['--color-border-primary', '--border'],
  ['--color-border-secondary', '--border'],
  ['--color-border-info', '--accent'],
  ['--color-border-success', '--ok'],
  ['--color-border-warning', '--warn'],
  ['--color-border-danger', '--danger'],
  ['--color-ring-primary', '--focus'],
]

/** Sizes the stylesheet writes as literals; the App's rem is the same 16 px default. */
const FIXED: Partial<McpUiStyles> = {
  '--border-radius-sm': '0.3rem',
  '--border-radius-md': '0.4rem',
  '--border-width-regular': '1px',
}

/** The palette resolved for the page's current colour scheme (light-dark() picks one side). */
export function hostStyles(): McpUiHostStyles {
  const probe = document.createElement('span')
  probe.hidden = true
  document.body.append(probe)
  const variables: Partial<McpUiStyles> = { ...FIXED }
  try {
    for (const [key, property] of PALETTE) {
      probe.style.color = `var(${property})`
      const value = getComputedStyle(probe).color
      if (value !== '') variables[key] = value
    }
    const sans = getComputedStyle(document.documentElement).fontFamily
    if (sans !== '') variables['--font-sans'] = sans
    variables['--font-mono'] = 'ui-monospace, monospace'
  } finally {
    probe.remove()
  }
  return { variables: variables as McpUiStyles }
}

function timeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone
}

/** Everything but the display mode and the container's size, which depend on where it is. */
export function hostEnvironment(theme: Theme): McpUiHostContext {
  return {
    theme,
    styles: hostStyles(),
    platform: 'web',
    locale: navigator.language,
    timeZone: timeZone(),
    userAgent: 'Ferry WebShell',
    deviceCapabilities: {
      touch: navigator.maxTouchPoints > 0,
      hover: matchMedia('(hover: hover)').matches,
    },
    availableDisplayModes: [...HOST_DISPLAY_MODES],
  }
}

/** Locale and time zone as they are now: the person may change either while the tab is open. */
export function hostLocale(): Pick<McpUiHostContext, 'locale' | 'timeZone'> {
  return { locale: navigator.language, timeZone: timeZone() }
}
