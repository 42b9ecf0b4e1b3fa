// The sessions layer as one object: stored sessions, the permission and input brokers, the call
// runner, and the feed of server status changes into every transcript of the workspace.

import type { Ferry } from '../core/ferry.js'
import type { Log } from '../log.js'
import type {
  AppContextInfo,
  ClientRef,
  ConfirmationOutcome,
  GrantRevokeResponse,
  GrantsResponse,
  InputAnswer,
  InputAnswerResponse,
  SessionInfo,
  TranscriptEventBody,
} from '../protocol/index.js'
import { AppHost } from './app-host.js'
import { AppRequests } from './app-requests.js'
import { appContexts } from './app-transcript.js'
import { CallRunner } from './call-runner.js'
import { OfferingRunner } from './offering-runner.js'
import { Replays } from './replay.js'
import { ResourceSubscriptions } from './resource-subscriptions.js'
import { InputBroker } from './input-broker.js'
import { PermissionBroker } from './permission-broker.js'
import { ServerLogRouter } from './server-log-router.js'
import type { Session } from './session.js'
import { SessionCalls, type CallDone, type CallOptions } from './session-calls.js'
import { SessionManager } from './session-manager.js'

/** A transcript file past this size is compacted automatically. */
export const DEFAULT_COMPACT_ABOVE_BYTES = 64 * 1024 * 1024

export class Sessions {
  private readonly runner: CallRunner
  private readonly calls: SessionCalls
  private readonly offerings: OfferingRunner
  private readonly subscriptions: ResourceSubscriptions
  private readonly replays: Replays
  /** What live MCP Apps ask, within each App's budget. */
  private readonly apps: AppRequests

  private constructor(
    private readonly manager: SessionManager,
    private readonly broker: PermissionBroker,
    private readonly inputs: InputBroker,
    readonly workspace: string,
    ferry: Ferry,
    log: Log,
  ) {
    this.runner = new CallRunner(ferry, this.broker, this.inputs, log)
    this.calls = new SessionCalls(this.runner, (id) => this.resolve(id))
    this.offerings = new OfferingRunner(ferry, this.inputs, log)
    this.subscriptions = new ResourceSubscriptions(ferry, manager, log)
    this.apps = new AppRequests(ferry, this.calls, this.offerings, log)
    this.replays = new Replays(ferry, this.calls, this.offerings, (id) => this.resolve(id))
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
    ferry.settingsHealth.on((problem) =>
      toWorkspace(
        problem === null ? { type: 'settings.recovered' } : { type: 'settings.failed', problem },
      ),
    )
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

  /** Runs a call for a client (see SessionCalls). */
  call(options: CallOptions): Promise<CallDone> {
    return this.calls.call(options)
  }

  /** Stops a running call (also one still waiting for its confirmation); `by` is recorded. */
  cancel(callId: string, by: ClientRef): void {
    this.runner.cancel(callId, by)
  }

  /** Answers a call's confirmation; the first answer wins. */
  answer(callId: string, outcome: ConfirmationOutcome, by: ClientRef): Promise<void> {
    return this.broker.answer(callId, outcome, by)
  }

  /** Answers a server's open question (elicitation or sampling); the first answer wins. */
  answerInput(inputId: string, answer: InputAnswer, by: ClientRef): Promise<InputAnswerResponse> {
    return this.inputs.answer(inputId, answer, by)
  }

  /** A fresh call id, for a caller that must know it before the call starts. */
  newCallId(): string {
    return this.calls.newCallId()
  }

  /** The session `id` (a stored one; an unknown id is an error). */
  get(id: string): Session {
    return this.manager.get(id)
  }

  /** Every stored session. */
  all(): Session[] {
    return this.manager.all()
  }

  list(): SessionInfo[] {
    return this.manager.list()
  }

  /** A new session in this workspace. */
  create(name: string): Promise<Session> {
    return this.manager.create(this.workspace, name)
  }

  rename(id: string, name: string): Promise<SessionInfo> {
    return this.manager.rename(id, name)
  }

  compact(id: string): Promise<SessionInfo> {
    return this.manager.compact(id)
  }

  remove(id: string): Promise<void> {
    return this.manager.remove(id)
  }

  /** Gets a prompt inside a session, recorded in its transcript. */
  getPrompt(
    ...args: Parameters<OfferingRunner['getPrompt']>
  ): ReturnType<OfferingRunner['getPrompt']> {
    return this.offerings.getPrompt(...args)
  }

  /** Reads a resource inside a session, recorded in its transcript. */
  readResource(
    ...args: Parameters<OfferingRunner['readResource']>
  ): ReturnType<OfferingRunner['readResource']> {
    return this.offerings.readResource(...args)
  }

  /** Completes a prompt's or resource template's argument. */
  complete(
    ...args: Parameters<OfferingRunner['complete']>
  ): ReturnType<OfferingRunner['complete']> {
    return this.offerings.complete(...args)
  }

  /**
   * Sends a request of `server`'s protocol trace again (see Replays): through the call path, or
   * the get, read, completion, listing or ping any client's request of it takes.
   */
  replay(...args: Parameters<Replays['replay']>): ReturnType<Replays['replay']> {
    return this.replays.replay(...args)
  }

  /** The session follows a resource; the seq of its record, or null if it already did. */
  subscribeResource(
    ...args: Parameters<ResourceSubscriptions['subscribe']>
  ): ReturnType<ResourceSubscriptions['subscribe']> {
    return this.subscriptions.subscribe(...args)
  }

  /** The session stops following a resource. */
  unsubscribeResource(
    ...args: Parameters<ResourceSubscriptions['unsubscribe']>
  ): ReturnType<ResourceSubscriptions['unsubscribe']> {
    return this.subscriptions.unsubscribe(...args)
  }

  /** Every MCP App the session's transcript holds, with the latest model context of each. */
  appContexts(id: string): { session: string; apps: AppContextInfo[] } {
    const session = this.manager.get(id)
    return { session: session.id, apps: appContexts(session.eventsAfter(0)) }
  }

  /** The Apps one client shows, and their requests. */
  appHost(): AppHost {
    return new AppHost(this.apps, (id) => this.resolve(id))
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
