// One MCP App on screen: the outer iframe on the sandbox origin (the static proxy, which holds the
// App in an inner srcdoc frame) and the host side of the protocol, an AppBridge with no MCP client
// whose requests go to the daemon (app-requests.ts). Loaded on demand, so the first visit pays nothing.

import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge'
import type { DisplayResult } from '../../../daemon/src/protocol/index.js'
import { attachRequests, HOST_CAPABILITIES, type AppRequestsOptions } from './app-requests.js'
import { AppPlacement } from './app-placement.js'
import type { DisplayModes } from './display-modes.js'

import { keepWarm, PROXY_READY_MS, startEarly, takeFrame } from './sandbox-frames.js'

export { MAX_HEIGHT_PX, MIN_HEIGHT_PX } from './app-placement.js'

export type AppDisplay = Extract<DisplayResult, { type: 'mcp_app' }>
import type { Theme } from './theme.js'

export type { Theme }

/**
 * Messages the proxy may pass on in any one second. The proxy closes an App past its own, lower
 * budget and says so; this one holds if that notice never comes.
 */
export const MAX_MESSAGES_PER_SECOND = 250
const APP_CLOSED = 'ui/notifications/sandbox-app-closed'

export interface AppView {
  /** Sends `ui/resource-teardown` and resolves on any answer or after `timeoutMs`. */
  teardown(timeoutMs: number): Promise<void>
  setTheme(theme: Theme): void
  /** Closes the bridge and removes the iframe. */
  dispose(): void
}

export interface AppViewOptions {
  callId: string
  /** The tab's record of which App is out of the transcript. */
  modes: DisplayModes
  container: HTMLElement
  sandboxOrigin: string
  display: AppDisplay
  theme: Theme
  title: string
  /** Whether the person let this App write to the clipboard (it declared that it wants to). */
  clipboard: boolean
  onFailure(reason: string): void
  /** The App was stopped for what it did; its frame is gone. */
  onClosed(reason: string): void
  /** How the App's requests reach the daemon. */
  requests: AppRequestsOptions
}

const HOST_INFO = { name: 'Ferry WebShell', version: '0.1.0' }

function wantsClipboard(display: AppDisplay): boolean {
  const declared = display.permissions.clipboardWrite
  return typeof declared === 'object' && declared !== null
}

/** A declared clipboard permission goes to the sandbox only if the person allowed it. */
function permissionsFor(
  declared: AppDisplay['permissions'],
  clipboard: boolean,
): AppDisplay['permissions'] {
  if (clipboard) return declared
  const { clipboardWrite: _refused, ...rest } = declared
  return rest
}

function closedReason(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined
  const { method, params } = data as { method?: unknown; params?: { reason?: unknown } }
  if (method !== APP_CLOSED) return undefined
  const reason = params?.reason
  return typeof reason === 'string' ? reason.slice(0, 200) : 'the sandbox closed it'
}

function proxyUrl(sandboxOrigin: string, csp: AppDisplay['csp']): string {
  const declared: Record<string, string[]> = {}
  for (const key of ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains']) {
    const list = csp[key]
    if (Array.isArray(list) && list.length > 0) declared[key] = list
  }
  const query =
    Object.keys(declared).length === 0 ? '' : `?csp=${encodeURIComponent(JSON.stringify(declared))}`
  return `${sandboxOrigin}/sandbox-proxy${query}`
}

/** Readies a frame for an App that declares no domains, before there is one. */
export function warmSandbox(sandboxOrigin: string): void {
  keepWarm(proxyUrl(sandboxOrigin, {}), null)
}

/**
 * Starts an App whose result has just arrived in the frame readied for it, before its card
 * exists. One that asks for the clipboard waits for the person's answer on its card instead.
 */
export function startAppEarly(callId: string, display: AppDisplay, sandboxOrigin: string): void {
  if (wantsClipboard(display)) return
  startEarly(callId, proxyUrl(sandboxOrigin, display.csp), null, {
    html: display.html,
    csp: display.csp,
    permissions: permissionsFor(display.permissions, false),
  })
}

export function startAppView(options: AppViewOptions): AppView {
  const { display } = options
  const url = proxyUrl(options.sandboxOrigin, display.csp)
  // Delegated to the proxy, which hands it on to the App's frame (the proxy's own policy check).
  const allow = options.clipboard && wantsClipboard(display) ? 'clipboard-write' : null
  const frame = takeFrame(options.container, options.callId, url, allow)
  const { iframe } = frame
  iframe.title = options.title
  iframe.className = display.prefersBorder === false ? 'app-frame' : 'app-frame app-frame-border'
  iframe.dataset.testid = 'app-frame'

  const placement = new AppPlacement({ ...options, iframe })
  const { hostContext } = placement
  // No MCP client: what the App asks goes to the daemon, or to the person first (app-requests.ts).
  const bridge = new AppBridge(null, HOST_INFO, HOST_CAPABILITIES, { hostContext })
  const requests = attachRequests(bridge, options.container, options.requests)
  // An App started ahead has its resource already.
  let ready = frame.early !== undefined
  let inputSent = false
  let failed = false
  const fail = (reason: string) => {
    if (ready || failed) return
    failed = true
    options.onFailure(reason)
  }
  const readyTimer = ready
    ? undefined
    : setTimeout(
        () => fail(`the sandbox did not load within ${PROXY_READY_MS / 1000} s`),
        PROXY_READY_MS,
      )
  // The proxy announces itself from its inline script, before its document's load event: a frame
  // that loaded without that notice holds an error page (its about:blank came and went on
  // insertion). A readied frame can fail after it was handed over, and a request can be lost while
  // the daemon restarts, so the page is loaded once more before the card falls back; the frame's
  // window, which the bridge talks to, stays the same.
  let reloaded = false
  if (!ready) {
    iframe.addEventListener('load', () => {
      if (ready || failed) return
      if (reloaded) fail('the sandbox page failed to load')
      else {
        reloaded = true
        iframe.src = url
      }
    })
  }

  const sendResource = () => {
    ready = true
    clearTimeout(readyTimer)
    void bridge.sendSandboxResourceReady({
      html: display.html,
      csp: display.csp,
      permissions: permissionsFor(display.permissions, options.clipboard),
    })
  }
  bridge.onsandboxready = sendResource
  bridge.oninitialized = () => {
    placement.initialized()
    // The next App's frame loads once this one is up, so the two do not compete.
    keepWarm(url, allow)
    if (inputSent) return
    inputSent = true
    requests.open()
    void (async () => {
      // An App is only made for a call that succeeded, so a result always follows the input.
      await bridge.sendToolInput({ arguments: display.toolInput })
      await bridge.sendToolResult(display.toolResult as Parameters<AppBridge['sendToolResult']>[0])
    })()
  }
  placement.serve(bridge)

  const target = iframe.contentWindow as Window
  // Registered before the bridge's own listener, so a stopped App's messages never reach it.
  let windowStart = 0
  let messages = 0
  let stopped = false
  const budget = (event: MessageEvent) => {
    if (event.source !== target) return
    if (!stopped) {
      const reason = closedReason(event.data)
      const now = performance.now()
      if (now - windowStart >= 1000) {
        windowStart = now
        messages = 0
      }
      messages += 1
      if (reason !== undefined || messages > MAX_MESSAGES_PER_SECOND) {
        stopped = true
        options.onClosed(
          reason ?? `the App sent more than ${MAX_MESSAGES_PER_SECOND} messages in a second`,
        )
      }
    }
    if (stopped) event.stopImmediatePropagation()
  }
  window.addEventListener('message', budget)
  // Connected before the proxy loads, so its ready notice cannot be missed; a warm proxy sent it
  // before this App existed.
  let disposed = false
  const connected = bridge.connect(new PostMessageTransport(target, target))
  if (frame.early !== undefined) {
    // The bridge listens from `connect` on; what the App sent before its card goes through the
    // budget and the bridge as if it came now, in order.
    for (const data of frame.early) {
      window.dispatchEvent(new MessageEvent('message', { data, source: target, origin: 'null' }))
    }
  } else if (frame.ready) {
    void connected.then(() => {
      if (!disposed) sendResource()
    })
  } else frame.load()
  return {
    async teardown(timeoutMs) {
      requests.close()
      if (disposed || !ready) return
      try {
        await bridge.teardownResource({}, { timeout: timeoutMs })
      } catch {
        // An error answer or no answer in time: either way the App has had its chance.
      }
    },
    setTheme(theme) {
      placement.setTheme(theme)
    },
    dispose() {
      if (disposed) return
      disposed = true
      requests.close()
      clearTimeout(readyTimer)
      window.removeEventListener('message', budget)
      void bridge.close()
      iframe.remove()
      placement.dispose()
    },
  }
}
