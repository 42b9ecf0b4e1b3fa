// The sessions layer as one object: stored sessions, the permission and input brokers, the call
// runner, and the feed of server status changes into every transcript of the workspace.

import type { Ferry } from '../core/ferry.js'
import type { Log } from '../log.js'
import type {
  ClientRef,
  GrantRevokeResponse,
  GrantsResponse,
  TranscriptEventBody,
} from '../protocol/index.js'
import { AppRequests } from './app-requests.js'
import { CallRunner } from './call-runner.js'
import { OfferingRunner } from './offering-runner.js'
import { ResourceSubscriptions } from './resource-subscriptions.js'
import { InputBroker } from './input-broker.js'
import { PermissionBroker } from './permission-broker.js'
import { ServerLogRouter } from './server-log-router.js'
import type { Session } from './session.js'
import { SessionManager } from './session-manager.js'

/** A transcript file past this size is compacted automatically. */
export const DEFAULT_COMPACT_ABOVE_BYTES = 64 * 1024 * 1024

export class Sessions {
  readonly runner: CallRunner
  readonly offerings: OfferingRunner
  readonly subscriptions: ResourceSubscriptions
  /** What live MCP Apps ask, within each App's budget. */
  readonly apps: AppRequests

  private constructor(
    readonly manager: SessionManager,
    readonly broker: PermissionBroker,
    readonly inputs: InputBroker,
    readonly workspace: string,
    readonly ferry: Ferry,
    log: Log,
  ) {
    this.runner = new CallRunner(ferry, this.broker, this.inputs, log)
    this.offerings = new OfferingRunner(ferry, log)
    this.subscriptions = new ResourceSubscriptions(ferry, manager, log)
    this.apps = new AppRequests(ferry, this.runner, this.offerings, log)
    const toWorkspace = (body: TranscriptEventBody) => {
      for (const session of manager.all()) {
        if (session.meta.workspace !== workspace) continue
        session.emit(body, null).catch((failure: unknown) => {
          log({ kind: 'session.write_failed', session: session.id, error: String(failure) })
        })
      }
    }
    ferry.onServerStatus((server, status, error) =>
      toWorkspace({ type: 'server.status', server, status, error }),
    )
    ferry.onNotice((level, message) => toWorkspace({ type: 'notice', level, message }))
    new ServerLogRouter(ferry, manager, workspace, this.runner, log)
  }

  static async open(
    stateDir: string,
    workspace: string,
    ferry: Ferry,
    log: Log,
    compactAboveBytes = DEFAULT_COMPACT_ABOVE_BYTES,
  ): Promise<Sessions> {
    const broker = new PermissionBroker()
    const inputs = new InputBroker(log)
    const manager = await SessionManager.load(stateDir, log, {
      compactAboveBytes,
      onLastAnswererGone: (session) => {
        broker.answerersLeft(session)
        inputs.answerersLeft(session)
      },
    })
    const sessions = new Sessions(manager, broker, inputs, workspace, ferry, log)
    for (const session of manager.all()) {
      sessions.broker.restore(session)
      sessions.subscriptions.restore(session)
    }
    await manager.defaultFor(workspace)
    return sessions
  }

  /** The named session, or the workspace's default one. */
  async resolve(id: string | undefined): Promise<Session> {
    return id === undefined ? this.manager.defaultFor(this.workspace) : this.manager.get(id)
  }

  /** The grants in force in a session (the workspace's default if none is named). */
  async grants(id: string | undefined): Promise<GrantsResponse> {
    const session = await this.resolve(id)
    return { session: session.id, grants: this.broker.grants(session) }
  }

  /** Ends the grants named (every grant of the session with `ids` undefined), recorded as by `by`. */
  async revokeGrants(
    id: string | undefined,
    ids: readonly string[] | undefined,
    by: ClientRef,
  ): Promise<GrantRevokeResponse> {
    const session = await this.resolve(id)
    const revoked = await this.broker.revoke(session, ids, by, (name) => `${name} was revoked`)
    return { session: session.id, revoked }
  }

  /**
   * `client` may no longer act (its gateway token was revoked, `why`): every call it runs is
   * cancelled, which withdraws the questions and confirmations of those calls, and every grant it
   * gave ends, in every session.
   */
  async endClient(client: ClientRef, why: string): Promise<void> {
    const cancelled = this.runner.cancelCallsOf(client.id)
    for (const session of this.manager.all()) {
      const ids = this.broker.givenBy(session, client.id)
      const calls = cancelled.filter((call) => call.session === session).length
      if (ids.length === 0 && calls === 0) continue
      await this.broker.revoke(
        session,
        ids,
        null,
        (name) => `${name}, given by ${client.label}, ended: ${why}`,
      )
      if (calls > 0) {
        await session.emit(
          {
            type: 'notice',
            level: 'warning',
            message: `${client.label}: ${calls} running call${calls === 1 ? '' : 's'} cancelled, as ${why}`,
          },
          null,
        )
      }
    }
  }

  close(): Promise<void> {
    return this.manager.closeAll()
  }
}
