// Which App, if any, is out of the transcript: full screen, in the floating panel, or maximized by
// the person. One at a time per tab: a newer request takes the place, and the App that held it
// goes back inline. Also which Apps the WebShell offers to maximize.

import { signal } from '@preact/signals'

export type DisplayMode = 'inline' | 'fullscreen' | 'pip'
/**
 * Where an App's frame is: one of the display modes, or `maximized`, the host's own full-tab view
 * for an App with no full screen of its own. The App is not told of it (it stays `inline` to the
 * App); only its container grows.
 */
export type StageMode = DisplayMode | 'maximized'
export type AwayMode = Exclude<StageMode, 'inline'>

/** What the WebShell can show; an App is granted only those it also declares. */
export const HOST_DISPLAY_MODES: readonly DisplayMode[] = ['inline', 'fullscreen', 'pip']

/** The display mode an App is told it is in. */
export function appMode(mode: StageMode): DisplayMode {
  return mode === 'maximized' ? 'inline' : mode
}

export interface AwayApp {
  readonly callId: string
  readonly mode: AwayMode
}

export class DisplayModes {
  /** The App shown out of the transcript, or null when every App is inline. */
  readonly away = signal<AwayApp | null>(null)
  /** Apps that declared no full screen, which the person may maximize. */
  readonly maximizable = signal<ReadonlySet<string>>(new Set())

  modeOf(callId: string): StageMode {
    const away = this.away.value
    return away?.callId === callId ? away.mode : 'inline'
  }

  set(callId: string, mode: StageMode): void {
    if (mode !== 'inline') {
      const away = this.away.value
      if (away?.callId !== callId || away.mode !== mode) this.away.value = { callId, mode }
    } else if (this.away.value?.callId === callId) {
      this.away.value = null
    }
  }

  /** Whether the App of `callId` gets the host's Maximize: once it has said which modes it has. */
  offerMaximize(callId: string, offered: boolean): void {
    const now = this.maximizable.value
    if (now.has(callId) === offered) return
    const next = new Set(now)
    if (offered) next.add(callId)
    else next.delete(callId)
    this.maximizable.value = next
  }
}
