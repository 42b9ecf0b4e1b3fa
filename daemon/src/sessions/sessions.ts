// The sessions layer as one object: stored sessions, the permission and input brokers, the call
// runner, and the feed of server status changes into every transcript of the workspace.

import type { Ferry } from '../core/ferry.js'
import type { Log } from '../log.js'
import type { TranscriptEventBody } from '../protocol/index.js'
import { CallRunner } from './call-runner.js'
import { InputBroker } from './input-broker.js'
import { PermissionBroker } from './permission-broker.js'
import type { Session } from './session.js'
import { SessionManager } from './session-manager.js'

/** A transcript file past this size is compacted automatically. */
export const DEFAULT_COMPACT_ABOVE_BYTES = 64 * 1024 * 1024

export class Sessions {
  readonly runner: CallRunner

  private constructor(
    readonly manager: SessionManager,
    readonly broker: PermissionBroker,
    readonly inputs: InputBroker,
    readonly workspace: string,
    ferry: Ferry,
    log: Log,
  ) {
    this.runner = new CallRunner(ferry, this.broker, this.inputs, log)
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
    for (const session of manager.all()) sessions.broker.restore(session)
    await manager.defaultFor(workspace)
    return sessions
  }

  /** The named session, or the workspace's default one. */
  async resolve(id: string | undefined): Promise<Session> {
    return id === undefined ? this.manager.defaultFor(this.workspace) : this.manager.get(id)
  }

  close(): Promise<void> {
    return this.manager.closeAll()
  }
}
