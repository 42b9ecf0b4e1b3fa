// One App's standing with the daemon: opened (`app_open`) once it is on screen, each of its requests
// passed on with its appId (`app_request`), and closed (`app_close`) as soon as its teardown starts.
// From then on its requests are refused here too, so nothing it asks while it goes reaches Ferry.

import type { AppRequest } from '../../../daemon/src/protocol/index.js'
import type { AppChannel } from '../stream.js'
import { StreamError } from '../stream.js'

/** JSON-RPC codes an App receives for a refused request. */
const INVALID_PARAMS = -32602
const INTERNAL_ERROR = -32603

/** What the App receives as the error of its request: the daemon's own words. */
export class AppRequestError extends Error {
  constructor(
    message: string,
    readonly code: number = INTERNAL_ERROR,
  ) {
    super(message)
  }
}

export const APP_CLOSED_MESSAGE = 'this App is being closed; Ferry takes no more requests from it'

export class AppSession {
  private opening: Promise<string> | undefined
  /** The socket the App was opened on: after a reconnection the daemon no longer knows its id. */
  private socket = -1
  private closed = false

  constructor(
    private readonly channel: AppChannel,
    private readonly callId: string,
  ) {}

  get isClosed(): boolean {
    return this.closed
  }

  /** Opens the App with the daemon (again, after a reconnection); requests wait for it. */
  open(): Promise<string> {
    if (this.opening === undefined || this.socket !== this.channel.socket) {
      this.socket = this.channel.socket
      this.opening = this.channel.appOpen(this.callId)
      // A refused open is answered to whichever request waits on it; nothing else waits.
      this.opening.catch(() => {})
    }
    return this.opening
  }

  /** Passes a request on; rejects with the daemon's refusal, or at once once the App is closing. */
  async request(request: AppRequest): Promise<unknown> {
    if (this.closed) throw new AppRequestError(APP_CLOSED_MESSAGE)
    try {
      const appId = await this.open()
      if (this.closed) throw new AppRequestError(APP_CLOSED_MESSAGE)
      return (await this.channel.appRequest(appId, request)) ?? {}
    } catch (error) {
      throw asAppError(error)
    }
  }

  /** Refuses every further request and tells the daemon; safe to call more than once. */
  close(): void {
    if (this.closed) return
    this.closed = true
    const opening = this.opening
    if (opening === undefined || this.socket !== this.channel.socket) return
    // Best effort: a tab going away or a lost socket closes the App on the daemon's side anyway.
    opening.then((appId) => this.channel.appClose(appId)).catch(() => {})
  }
}

function asAppError(error: unknown): AppRequestError {
  if (error instanceof AppRequestError) return error
  if (error instanceof StreamError) {
    return new AppRequestError(
      error.message,
      error.code === 'bad_request' ? INVALID_PARAMS : INTERNAL_ERROR,
    )
  }
  return new AppRequestError(error instanceof Error ? error.message : String(error))
}
