// The Apps on screen, by call id. An App's iframe is only removed after the App was told
// (`ui/resource-teardown`, answered or timed out), so whatever removes one goes through here:
// switching sessions, too many Apps open at once, or the card itself going away. One per tab, made
// by the shell store; cards read `changes` to follow what is closed and what the person allowed.

import { signal } from '@preact/signals'
import type { AppView, Theme } from './app-view.js'
import { DisplayModes } from './display-modes.js'

/** How long an App may take to answer a teardown before its frame goes anyway. */
export const TEARDOWN_MS = 1000
/** Apps kept running at once; older ones are closed (their cards offer to show them again). */
export const MAX_LIVE_APPS = 12

export class LiveApps {
  private readonly views = new Map<string, AppView>()
  private readonly closed = new Set<string>()
  /** The person's answer to an App's clipboard request, kept while the page lives. */
  private readonly clipboard = new Map<string, boolean>()
  /** Origins the person let Apps open without asking, per Ferry session, while the page lives. */
  private readonly linksAllowed = new Map<string, Set<string>>()
  /** Bumped when an App closes or reopens, or a clipboard answer is given. */
  readonly changes = signal(0)
  /** The App shown full screen or in the floating panel; it goes back inline when closed. */
  readonly modes = new DisplayModes()
  private theme: Theme = 'light'

  isClosed(callId: string): boolean {
    return this.closed.has(callId)
  }

  /** Whether Apps of `session` may open pages of `origin` without asking. */
  opensWithoutAsking(session: string | undefined, origin: string): boolean {
    return this.linksAllowed.get(session ?? '')?.has(origin) === true
  }

  /** The person said "always" for `origin` in `session`. */
  allowLinks(session: string | undefined, origin: string): void {
    const key = session ?? ''
    const origins = this.linksAllowed.get(key) ?? new Set<string>()
    origins.add(origin)
    this.linksAllowed.set(key, origins)
  }

  clipboardAnswer(callId: string): boolean | undefined {
    return this.clipboard.get(callId)
  }

  answerClipboard(callId: string, allowed: boolean): void {
    this.clipboard.set(callId, allowed)
    this.notify()
  }

  currentTheme(): Theme {
    return this.theme
  }

  add(callId: string, view: AppView): void {
    this.views.set(callId, view)
  }

  /** The card went away without a closing first (the page is going): tell the App, don't wait. */
  drop(callId: string): void {
    const view = this.views.get(callId)
    this.views.delete(callId)
    if (view === undefined) return
    void view.teardown(0)
    view.dispose()
  }

  /** Tells the App it is going, waits for its answer (bounded), then removes its frame. */
  async close(callId: string, timeoutMs = TEARDOWN_MS): Promise<void> {
    const view = this.views.get(callId)
    this.closed.add(callId)
    if (view !== undefined) {
      await view.teardown(timeoutMs)
      this.views.delete(callId)
      view.dispose()
    }
    this.notify()
  }

  closeAll(timeoutMs = TEARDOWN_MS): Promise<void> {
    return Promise.all([...this.views.keys()].map((id) => this.close(id, timeoutMs))).then(() => {})
  }

  reopen(callId: string): void {
    this.closed.delete(callId)
    this.notify()
  }

  setTheme(theme: Theme): void {
    this.theme = theme
    for (const view of this.views.values()) view.setTheme(theme)
  }

  /** Best effort when the page goes away: there is no waiting for answers then. */
  leaving(): void {
    for (const id of [...this.views.keys()]) this.drop(id)
  }

  private notify(): void {
    this.changes.value += 1
  }
}
