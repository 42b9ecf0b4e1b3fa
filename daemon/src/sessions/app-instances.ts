// The MCP Apps one stream connection shows: `app_open` of a call whose result has an App makes a
// live App with a fresh id, live until its tab closes it, opens the same call's App again or goes
// away, or until its session is deleted. A request of an App that is not live is refused; an App
// that ends cancels its running calls.

import { randomBytes } from 'node:crypto'
import { setMaxListeners } from 'node:events'
import { ErrorCode, FerryError } from '../errors.js'
import { appDisplayOf } from './app-transcript.js'
import type { Session } from './session.js'

export interface LiveApp {
  appId: string
  session: Session
  /** The call whose result rendered the App. */
  callId: string
  /** The qualified name of the tool whose call rendered it. */
  tool: string
  /** The App's own server: the only one it may call or read. */
  server: string
  resourceUri: string
  /** Aborts when the App ends, so its reads and the calls it started stop with it. */
  signal: AbortSignal
}

/** Why ended Apps ended, for the refusal of their late requests; the oldest are forgotten. */
const REMEMBERED_ENDS = 256

export class AppInstances {
  private readonly live = new Map<string, { app: LiveApp; controller: AbortController }>()
  private readonly ended = new Map<string, string>()

  /** Opens the App of `callId` in `session`, replacing this connection's earlier one of it. */
  open(session: Session, callId: string): LiveApp {
    const { display, tool } = appDisplayOf(session.eventsAfter(0), session.id, callId)
    for (const { app } of this.live.values()) {
      if (app.session === session && app.callId === callId) {
        this.end(app.appId, `it was replaced when its tab opened the App of call ${callId} again`)
      }
    }
    const controller = new AbortController()
    // Every read and call of the App listens for its end.
    setMaxListeners(0, controller.signal)
    const app: LiveApp = {
      appId: randomBytes(8).toString('hex'),
      session,
      callId,
      tool,
      server: display.serverName,
      resourceUri: display.resourceUri,
      signal: controller.signal,
    }
    this.live.set(app.appId, { app, controller })
    return app
  }

  /** The live App `appId`, or an error saying why it is not (torn down, replaced, its session gone). */
  get(appId: string): LiveApp {
    const live = this.live.get(appId)
    if (live !== undefined) {
      if (!live.app.session.closed) return live.app
      this.end(appId, 'its session was deleted')
    }
    const why = this.ended.get(appId)
    throw new FerryError(
      ErrorCode.NotFound,
      why === undefined
        ? `no live App ${appId} on this connection: it was torn down or replaced, or never opened here`
        : `App ${appId} is no longer live: ${why}; its requests are refused`,
    )
  }

  /** Closes the App (again is fine); an id never opened on this connection is an error. */
  close(appId: string): void {
    if (this.ended.has(appId)) return
    this.get(appId)
    this.end(appId, 'its tab tore it down')
  }

  /** The connection went away: every App it showed ends. */
  closeAll(): void {
    for (const appId of [...this.live.keys()]) this.end(appId, 'its tab went away')
  }

  private end(appId: string, why: string): void {
    const live = this.live.get(appId)
    if (live === undefined) return
    this.live.delete(appId)
    this.ended.set(appId, why)
    if (this.ended.size > REMEMBERED_ENDS) {
      const oldest = this.ended.keys().next().value
      if (oldest !== undefined) this.ended.delete(oldest)
    }
    live.controller.abort()
  }
}
