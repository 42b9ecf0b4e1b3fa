// The outer sandbox frames Apps start in. One proxy frame is kept loaded out of sight ahead of the
// next App and moved into that App's card with `moveBefore`, which keeps its document; it fits
// only an App whose proxy address (so its policy) and `allow` are exactly those it was loaded with.
// An App whose result has just arrived may start in it out of sight, before its card exists.

/** The proxy's notice that it is listening; the same one the AppBridge waits for. */
const PROXY_READY = 'ui/notifications/sandbox-proxy-ready'
const RESOURCE_READY = 'ui/notifications/sandbox-resource-ready'
const TEARDOWN = 'ui/resource-teardown'
/**
 * How long a proxy page that has not finished loading may take to announce itself before the card
 * falls back to text. A page that loaded without announcing itself (an error page) is loaded once
 * more and then fails, without this wait, so the bound only ends a load that hangs; a busy
 * machine's slow load still shows its App.
 */
export const PROXY_READY_MS = 30_000
/** How long a new warm frame may wait for the page to be idle before it loads anyway. */
const WARM_IDLE_MS = 1000
/** How long an App started ahead waits for its card before it is told to go and removed. */
const EARLY_CLAIM_MS = 5000
/** What an App started ahead may send before its card exists; more and it is stopped. */
const EARLY_MAX_MESSAGES = 50
/** How long a stopped early App may take to answer its teardown. */
const EARLY_TEARDOWN_MS = 1000

export interface SandboxFrame {
  iframe: HTMLIFrameElement
  /** The proxy announced itself before the App was given the frame: send the resource now. */
  ready: boolean
  /** Points a frame that is not warm at its proxy; call it once its window is listened to. */
  load(): void
  /** The App was given its resource ahead of its card; what it has sent since, oldest first. */
  early?: unknown[]
}

interface EarlyFrame {
  iframe: HTMLIFrameElement
  url: string
  allow: string | null
  pending: unknown[]
  expiry: ReturnType<typeof setTimeout>
  stopListening(): void
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
const early = new Map<string, EarlyFrame>()

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

function fits<T extends { url: string; allow: string | null }>(
  frame: T | undefined,
  url: string,
  allow: string | null,
): frame is T {
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

/** An App started ahead that will not get its card: told it is going, then removed. */
function retire(callId: string): void {
  const frame = early.get(callId)
  if (frame === undefined) return
  early.delete(callId)
  clearTimeout(frame.expiry)
  frame.stopListening()
  const target = frame.iframe.contentWindow
  const id = `early-teardown-${callId}`
  const done = (event?: MessageEvent) => {
    if (event !== undefined) {
      const data = event.data as { id?: unknown } | null
      if (event.source !== target || data?.id !== id) return
    }
    window.removeEventListener('message', done)
    clearTimeout(timer)
    frame.iframe.remove()
  }
  const timer = setTimeout(() => done(), EARLY_TEARDOWN_MS)
  window.addEventListener('message', done)
  target?.postMessage({ jsonrpc: '2.0', id, method: TEARDOWN, params: {} }, '*')
}

/**
 * Starts the App of `callId` in the warm frame, out of sight, when that frame is ready and fits:
 * its own frame loads while its card renders. What it sends is kept for the card's bridge, which
 * answers it; an App that gets no card in time is told to go and removed.
 */
export function startEarly(
  callId: string,
  url: string,
  allow: string | null,
  resource: Record<string, unknown>,
): void {
  if (early.has(callId) || warm === undefined || !warm.ready || !fits(warm, url, allow)) return
  const taken = warm
  warm = undefined
  // Synchronous hand-over, as in `takeFrame`.
  taken.stopListening()
  const target = taken.iframe.contentWindow
  if (target === null) {
    taken.iframe.remove()
    return
  }
  const pending: unknown[] = []
  const onMessage = (event: MessageEvent) => {
    if (event.source !== target) return
    if (pending.length < EARLY_MAX_MESSAGES) pending.push(event.data)
    else retire(callId)
  }
  window.addEventListener('message', onMessage)
  early.set(callId, {
    iframe: taken.iframe,
    url,
    allow,
    pending,
    expiry: setTimeout(() => retire(callId), EARLY_CLAIM_MS),
    stopListening: () => window.removeEventListener('message', onMessage),
  })
  target.postMessage({ jsonrpc: '2.0', method: RESOURCE_READY, params: resource }, '*')
}

/** Moves `iframe` into `container`, keeping its document; false where the move failed. */
function moveInto(container: HTMLElement, iframe: HTMLIFrameElement): boolean {
  try {
    ;(container as Movable).moveBefore?.(iframe, null)
  } catch {
    return false
  }
  return iframe.parentNode === container
}

/**
 * A frame in `container` for the App of `callId` whose proxy is at `url` with `allow` delegated:
 * the one it started in ahead, or the warm one when it was loaded for exactly these, otherwise a
 * new one the caller loads. A frame is handed out once, so no two Apps ever share a proxy.
 */
export function takeFrame(
  container: HTMLElement,
  callId: string,
  url: string,
  allow: string | null,
): SandboxFrame {
  const started = early.get(callId)
  if (fits(started, url, allow)) {
    if (!moveInto(container, started.iframe)) retire(callId)
    else {
      early.delete(callId)
      clearTimeout(started.expiry)
      // Synchronous hand-over: the caller's bridge listens before the next message can arrive.
      started.stopListening()
      started.iframe.removeAttribute('tabindex')
      return { iframe: started.iframe, ready: true, load: () => {}, early: started.pending }
    }
  } else retire(callId)
  // A proxy that failed to load (the daemon was away, say) would only hold the App up.
  if (warm !== undefined && warm.loaded && !warm.ready) discardWarm()
  const taken = warm
  if (fits(taken, url, allow)) {
    warm = undefined
    // Synchronous hand-over: no message can arrive between this listener and the App's.
    taken.stopListening()
    if (moveInto(container, taken.iframe)) {
      taken.iframe.removeAttribute('tabindex')
      return { iframe: taken.iframe, ready: taken.ready, load: () => {} }
    }
    taken.iframe.remove()
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
