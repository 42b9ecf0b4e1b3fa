// Where an App sits on the page and what it is told about it: a display mode it asks for is granted
// when both it and the WebShell have that mode, an App with no full screen of its own is offered the
// host's Maximize, its height stays within the bounds of its mode, and its host context follows the
// theme, locale, time zone, display mode and its container's size.

import type { AppBridge, McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge'
import { effect } from '@preact/signals'
import type { Theme } from './theme.js'
import {
  appMode,
  HOST_DISPLAY_MODES,
  type DisplayMode,
  type DisplayModes,
  type StageMode,
} from './display-modes.js'
import { hostEnvironment, hostLocale, hostStyles } from './host-context.js'

/** Heights an App may ask for inline: a sliver at least, and never taller than a few screens. */
export const MIN_HEIGHT_PX = 40
export const MAX_HEIGHT_PX = 2000
/** The floating panel stays small enough to leave the transcript readable beside it. */
export const PIP_MAX_HEIGHT_PX = 480
const FIRST_HEIGHT_PX = 160

export interface PlacementOptions {
  callId: string
  modes: DisplayModes
  /** The element holding the frame: restyled, never moved, when the mode changes. */
  container: HTMLElement
  iframe: HTMLIFrameElement
  theme: Theme
}

function clamp(height: number, max: number): number {
  return Math.min(max, Math.max(MIN_HEIGHT_PX, Math.round(height)))
}

export class AppPlacement {
  private context: McpUiHostContext
  private bridge: AppBridge | null = null
  /** The App's last asked height, kept while full screen for when it comes back. */
  private requested = FIRST_HEIGHT_PX
  private readonly cleanups: (() => void)[] = []

  constructor(private readonly options: PlacementOptions) {
    this.context = {
      ...hostEnvironment(options.theme),
      displayMode: 'inline',
      containerDimensions: this.dimensions('inline'),
    }
    this.applyHeight('inline')
  }

  /** What the App is given when it initializes. */
  get hostContext(): McpUiHostContext {
    return this.context
  }

  /** Answers the App's mode and size requests and keeps its host context current from now on. */
  serve(bridge: AppBridge): void {
    const { callId, modes, container } = this.options
    this.bridge = bridge
    bridge.onrequestdisplaymode = async ({ mode }) => {
      // Maximized, the App is inline as far as it knows: asking for inline changes nothing.
      const maximizedInline = mode === 'inline' && modes.modeOf(callId) === 'maximized'
      if (!maximizedInline && this.grantable(mode)) modes.set(callId, mode)
      return { mode: appMode(modes.modeOf(callId)) }
    }
    bridge.onsizechange = ({ height }) => {
      if (typeof height !== 'number' || !Number.isFinite(height)) return
      this.requested = height
      this.applyHeight(this.mode())
    }
    const observer = new ResizeObserver(() => this.measure())
    observer.observe(container)
    const relocale = () => this.update(hostLocale())
    window.addEventListener('languagechange', relocale)
    window.addEventListener('focus', relocale)
    let frame = 0
    const stop = effect(() => {
      const mode = modes.modeOf(callId)
      this.applyHeight(mode)
      this.update({ displayMode: appMode(mode) })
      // The card is restyled on its next render; the size is read once that is laid out.
      cancelAnimationFrame(frame)
      frame = requestAnimationFrame(() => this.measure())
    })
    this.cleanups.push(
      stop,
      () => cancelAnimationFrame(frame),
      () => observer.disconnect(),
      () => window.removeEventListener('languagechange', relocale),
      () => window.removeEventListener('focus', relocale),
    )
  }

  /** The App has initialized: without a full screen of its own, the person may maximize it. */
  initialized(): void {
    const declared = this.bridge?.getAppCapabilities()?.availableDisplayModes ?? []
    this.options.modes.offerMaximize(this.options.callId, !declared.includes('fullscreen'))
  }

  setTheme(theme: Theme): void {
    this.update({ theme, styles: hostStyles() })
  }

  /** The frame is gone: the App gives up its place out of the transcript, if it had one. */
  dispose(): void {
    for (const cleanup of this.cleanups.splice(0)) cleanup()
    this.bridge = null
    this.options.modes.offerMaximize(this.options.callId, false)
    this.options.modes.set(this.options.callId, 'inline')
  }

  private mode(): StageMode {
    return this.options.modes.modeOf(this.options.callId)
  }

  private grantable(mode: DisplayMode): boolean {
    if (mode === 'inline') return true
    const declared = this.bridge?.getAppCapabilities()?.availableDisplayModes ?? []
    return HOST_DISPLAY_MODES.includes(mode) && declared.includes(mode)
  }

  private applyHeight(mode: StageMode): void {
    const { style } = this.options.iframe
    // Full screen or maximized, the stylesheet makes the frame fill what the close bar leaves.
    if (mode === 'fullscreen' || mode === 'maximized') style.height = ''
    else
      style.height = `${clamp(this.requested, mode === 'pip' ? PIP_MAX_HEIGHT_PX : MAX_HEIGHT_PX)}px`
  }

  private dimensions(mode: StageMode): McpUiHostContext['containerDimensions'] {
    const { clientWidth: width, clientHeight: height } = this.options.container
    if (mode === 'fullscreen' || mode === 'maximized') return { width, height }
    return { width, maxHeight: mode === 'pip' ? PIP_MAX_HEIGHT_PX : MAX_HEIGHT_PX }
  }

  private measure(): void {
    this.update({ containerDimensions: this.dimensions(this.mode()) })
  }

  /** A new object each time: the bridge sends the App only what differs from what it holds. */
  private update(change: Partial<McpUiHostContext>): void {
    this.context = { ...this.context, ...change }
    this.bridge?.setHostContext(this.context)
  }
}
