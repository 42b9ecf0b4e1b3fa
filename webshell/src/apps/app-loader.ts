// Where Apps run and their code: the sandbox origin, the App code loaded on demand and kept, and
// the idle-time warm-up (a server offers a tool with an App: the code loads and a sandbox frame is
// readied once the page is idle, so the first App waits for neither; other tabs pay nothing).

import type { ToolInfo, TranscriptEvent } from '../../../daemon/src/protocol/index.js'

type AppViewModule = typeof import('./app-view.js')

/**
 * This page's origin with its loopback IP literal swapped for `localhost`; a page reached any
 * other way has no isolation origin to use.
 */
export function sandboxOrigin(location: Location): string | null {
  const host = location.hostname
  if (host !== '127.0.0.1' && host !== '[::1]') return null
  return `${location.protocol}//localhost:${location.port}`
}

let loaded: AppViewModule | undefined
let warmed = false

export function loadAppView(): Promise<AppViewModule> {
  return import('./app-view.js').then((module) => (loaded = module))
}

/** The App code if it has loaded: starting from it needs no wait for another task. */
export function loadedAppView(): AppViewModule | undefined {
  return loaded
}

export function warmAppsWhenIdle(tools: readonly ToolInfo[]): void {
  if (warmed || !tools.some((tool) => tool.uiResourceUri !== null && tool.appNotShown === null)) {
    return
  }
  const origin = sandboxOrigin(window.location)
  if (origin === null) return
  warmed = true
  const run = () => {
    // Code that fails to load here fails again, with its reason, on the App's own card.
    loadAppView()
      .then(({ warmSandbox }) => warmSandbox(origin))
      .catch(() => {})
  }
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 2000 })
  else setTimeout(run, 0)
}

/**
 * Starts the Apps of results that just arrived, ahead of their cards, when the App code is loaded
 * and a frame is ready; their cards take them over.
 */
export function startAppsEarly(events: readonly TranscriptEvent[]): void {
  if (loaded === undefined) return
  const origin = sandboxOrigin(window.location)
  if (origin === null) return
  for (const event of events) {
    if (event.type !== 'call.result' || event.display.type !== 'mcp_app') continue
    loaded.startAppEarly(event.callId, event.display, origin)
  }
}
