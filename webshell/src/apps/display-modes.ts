// Which App, if any, is out of the transcript: full screen or in the floating panel. One at a time
// per tab: a newer request takes the place, and the App that held it goes back inline.

import { signal } from '@preact/signals'

export type DisplayMode = 'inline' | 'fullscreen' | 'pip'
export type AwayMode = Exclude<DisplayMode, 'inline'>

/** What the WebShell can show; an App is granted only those it also declares. */
export const HOST_DISPLAY_MODES: readonly DisplayMode[] = ['inline', 'fullscreen', 'pip']

export interface AwayApp {
  readonly callId: string
  readonly mode: AwayMode
}

export class DisplayModes {
  /** The App shown out of the transcript, or null when every App is inline. */
  readonly away = signal<AwayApp | null>(null)

  modeOf(callId: string): DisplayMode {
    const away = this.away.value
    return away?.callId === callId ? away.mode : 'inline'
  }

  set(callId: string, mode: DisplayMode): void {
    if (mode !== 'inline') {
      const away = this.away.value
      if (away?.callId !== callId || away.mode !== mode) this.away.value = { callId, mode }
    } else if (this.away.value?.callId === callId) {
      this.away.value = null
    }
  }
}
