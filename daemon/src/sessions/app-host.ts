// The MCP Apps one client (a tab's stream connection) shows, and what they ask: each App opened
// from a call's result, live until the client closes it or goes away, its requests answered
// through the sessions' App rules (see app-requests.ts).

import type { AppRequest, ClientRef } from '../protocol/index.js'
import { AppInstances } from './app-instances.js'
import type { AppAnswer, AppRequests } from './app-requests.js'
import type { Session } from './session.js'

export class AppHost {
  private readonly instances = new AppInstances()

  constructor(
    private readonly requests: AppRequests,
    private readonly resolve: (id: string | undefined) => Promise<Session>,
  ) {}

  /**
   * Opens the App of `callId`'s result in the session `session` (the workspace's default if none
   * is named), replacing this client's earlier one of it.
   */
  async open(session: string | undefined, callId: string): Promise<{ appId: string }> {
    return { appId: this.instances.open(await this.resolve(session), callId).appId }
  }

  /** Closes the App (again is fine); its reads and calls stop. */
  close(appId: string): void {
    this.instances.close(appId)
  }

  /** The client went away: every App it showed ends. */
  closeAll(): void {
    this.instances.closeAll()
  }

  /** Answers one request of the live App `appId`, made through the client `client`. */
  request(appId: string, request: AppRequest, client: ClientRef): Promise<AppAnswer> {
    return this.requests.handle(this.instances.get(appId), request, client)
  }
}
