// The outer sandbox frames Apps start in. One proxy frame is kept loaded out of sight ahead of the
// next App and moved into that App's card with `moveBefore`, which keeps its document; it fits
// only an App whose proxy address (so its policy) and `allow` are exactly those it was loaded with.

/** The proxy's notice that it is listening; the same one the AppBridge waits for. */
const PROXY_READY = 'ui/notifications/sandbox-proxy-ready'
/** How long a new warm frame may wait for the page to be idle before it loads anyway. */
const WARM_IDLE_MS = 1000

export interface SandboxFrame {
  iframe: HTMLIFrameElement
  /** The proxy announced itself before the App was given the frame: send the resource now. */
  ready: boolean
  /** Points a frame that is not warm at its proxy; call it once its window is listened to. */
  load(): void
}

interface WarmFrame {
  iframe: HTMLIFrameElement
  url: string
  allow: string | null
  ready: boolean
  /** Its document finished loading: with no ready notice by then, it is an error page. */
  loaded: boolean
  stopListening(): void
}

type Movable = ParentNode & { moveBefore?: (node: Node, child: Node | null) => void }

let warm: WarmFrame | undefined
let parking: HTMLElement | undefined
let scheduled: { url: string; allow: string | null } | undefined

/** A state-preserving move; where it is missing every App gets a frame of its own. */
function canKeepWarm(): boolean {
  return typeof (document.body as Movable).moveBefore === 'function'
}

function newFrame(allow: string | null): HTMLIFrameElement {
  const iframe = document.createElement('iframe')
  iframe.setAttribute('sandbox', 'allow-scripts')
  if (allow !== null) iframe.setAttribute('allow', allow)
  return iframe
}

/** Out of sight, out of the tab order and the accessibility tree; laid out, so it loads. */
function parkingLot(): HTMLElement {
  if (parking?.isConnected) return parking
  parking = document.createElement('div')
  parking.dataset.testid = 'sandbox-frames'
  parking.setAttribute('aria-hidden', 'true')
  parking.inert = true
  Object.assign(parking.style, {
    position: 'fixed',
    left: '-10000px',
    top: '0',
    width: '40rem',
    height: '10rem',
    overflow: 'hidden',
    pointerEvents: 'none',
  })
  document.body.append(parking)
  return parking
}

function startWarm(url: string, allow: string | null): void {
  const iframe = newFrame(allow)
  iframe.title = 'MCP App sandbox, not yet in use'
  iframe.tabIndex = -1
  const frame: WarmFrame = {
    iframe,
    url,
    allow,
    ready: false,
    loaded: false,
    stopListening: () => {},
  }
  const onMessage = (event: MessageEvent) => {
    // The proxy's origin is opaque ('null'): its window is what identifies it.
    if (event.source !== iframe.contentWindow) return
    const data = event.data as { jsonrpc?: unknown; method?: unknown } | null
    if (data?.jsonrpc === '2.0' && data.method === PROXY_READY) frame.ready = true
  }
  window.addEventListener('message', onMessage)
  frame.stopListening = () => window.removeEventListener('message', onMessage)
  parkingLot().append(iframe)
  // Registered after the initial about:blank document has come and gone.
  iframe.addEventListener('load', () => (frame.loaded = true), { once: true })
  iframe.src = url
  warm = frame
}

function fits(frame: WarmFrame | undefined, url: string, allow: string | null): frame is WarmFrame {
  return frame !== undefined && frame.url === url && frame.allow === allow
}

function discardWarm(): void {
  if (warm === undefined) return
  warm.stopListening()
  warm.iframe.remove()
  warm = undefined
}

/**
 * Readies one frame for `url` and `allow` once the page is idle, replacing a warm frame of any
 * other kind: the next App is most likely another one like the last.
 */
export function keepWarm(url: string, allow: string | null): void {
  if (!canKeepWarm()) return
  // The latest wish wins; one idle callback serves them all.
  const pending = scheduled !== undefined
  scheduled = { url, allow }
  if (pending) return
  const run = () => {
    const wanted = scheduled
    scheduled = undefined
    if (wanted === undefined) return
    if (fits(warm, wanted.url, wanted.allow)) return
    discardWarm()
    startWarm(wanted.url, wanted.allow)
  }
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: WARM_IDLE_MS })
  else setTimeout(run, 0)
}

/**
 * A frame in `container` for an App whose proxy is at `url` with `allow` delegated: the warm one
 * when it was loaded for exactly these, otherwise a new one the caller loads. A frame is handed out
 * once, so no two Apps ever share a proxy.
 */
export function takeFrame(container: HTMLElement, url: string, allow: string | null): SandboxFrame {
  // A proxy that failed to load (the daemon was away, say) would only hold the App up.
  if (warm !== undefined && warm.loaded && !warm.ready) discardWarm()
  const taken = warm
  if (fits(taken, url, allow)) {
    warm = undefined
    // Synchronous hand-over: no message can arrive between this listener and the App's.
    taken.stopListening()
    try {
      ;(container as Movable).moveBefore?.(taken.iframe, null)
    } catch {
      taken.iframe.remove()
    }
    if (taken.iframe.parentNode === container) {
      taken.iframe.removeAttribute('tabindex')
      return { iframe: taken.iframe, ready: taken.ready, load: () => {} }
    }
  }
  const iframe = newFrame(allow)
  container.append(iframe)
  return {
    iframe,
    ready: false,
    load: () => {
      iframe.src = url
    },
  }
}
