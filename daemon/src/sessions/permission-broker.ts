// Confirmations: which calls need one, asking every attached client, first answer wins, and the
// session-wide "always allow" grants that answers create.

import { ErrorCode, FerryError } from '../errors.js'
import type { ClientRef, ConfirmationOutcome } from '../protocol/index.js'
import type { Session } from './session.js'

export interface ToolUnderCall {
  /** Qualified name. */
  tool: string
  server: string
  readOnlyHint: boolean | undefined
  serverTrusted: boolean
}

/** A confirmation nobody can give any more: the caller cannot answer and every answerer left. */
export const UNANSWERABLE = 'unanswerable'
export type AskOutcome = ConfirmationOutcome | typeof UNANSWERABLE

interface Pending {
  session: Session
  call: ToolUnderCall
  callerCanAnswer: boolean
  resolve: (outcome: AskOutcome) => void
}

interface Grants {
  tools: Set<string>
  servers: Set<string>
}

/** Answers are remembered this long after the fact, to tell late clients who answered. */
const RESOLVED_MEMORY = 1000

export class PermissionBroker {
  private readonly grants = new Map<string, Grants>()
  private readonly pending = new Map<string, Pending>()
  private readonly resolved = new Map<string, { outcome: ConfirmationOutcome; by: ClientRef }>()

  needsConfirmation(session: Session, call: ToolUnderCall): boolean {
    if (call.serverTrusted || call.readOnlyHint === true) return false
    const grants = this.grants.get(session.id)
    return !(grants?.tools.has(call.tool) || grants?.servers.has(call.server))
  }

  /** Records the request and resolves with the first answer any client gives. */
  async ask(
    session: Session,
    callId: string,
    call: ToolUnderCall,
    client: ClientRef,
    callerCanAnswer = false,
  ): Promise<AskOutcome> {
    const outcome = new Promise<AskOutcome>((resolve) => {
      this.pending.set(callId, { session, call, callerCanAnswer, resolve })
    })
    await session.emit(
      { type: 'confirmation.requested', callId, tool: call.tool, server: call.server },
      client,
    )
    return outcome
  }

  /** An answer from any client; a second answer gets a Conflict naming the first. */
  async answer(callId: string, outcome: ConfirmationOutcome, by: ClientRef): Promise<void> {
    const done = this.resolved.get(callId)
    if (done !== undefined) {
      throw new FerryError(
        ErrorCode.Conflict,
        `already resolved by ${done.by.label}: ${done.outcome.replace('_', ' ')}`,
      )
    }
    const pending = this.pending.get(callId)
    if (pending === undefined) {
      throw new FerryError(ErrorCode.NotFound, `no confirmation is pending for call ${callId}`)
    }
    this.pending.delete(callId)
    this.remember(callId, { outcome, by })
    this.grant(pending.session, outcome, pending.call)
    await pending.session.emit({ type: 'confirmation.resolved', callId, outcome }, by)
    pending.resolve(outcome)
  }

  /** The call ended another way (cancelled) while waiting: nobody can answer it any more. */
  withdraw(callId: string, outcome: ConfirmationOutcome = 'deny'): void {
    const pending = this.pending.get(callId)
    if (pending === undefined) return
    this.pending.delete(callId)
    pending.resolve(outcome)
  }

  /** Every client that could answer left `session`: questions only they could answer end. */
  answerersLeft(session: Session): void {
    for (const [callId, pending] of this.pending) {
      if (pending.session !== session || pending.callerCanAnswer) continue
      this.pending.delete(callId)
      pending.resolve(UNANSWERABLE)
    }
  }

  isPending(callId: string): boolean {
    return this.pending.has(callId)
  }

  /** Rebuilds a session's "always allow" grants from its transcript (after a restart). */
  restore(session: Session): void {
    const asked = new Map<string, ToolUnderCall>()
    for (const event of session.eventsAfter(0)) {
      if (event.type === 'confirmation.requested') {
        asked.set(event.callId, {
          tool: event.tool,
          server: event.server,
          readOnlyHint: undefined,
          serverTrusted: false,
        })
      } else if (event.type === 'confirmation.resolved') {
        const call = asked.get(event.callId)
        if (call !== undefined) this.grant(session, event.outcome, call)
      }
    }
  }

  private grant(session: Session, outcome: ConfirmationOutcome, call: ToolUnderCall): void {
    if (outcome !== 'allow_tool' && outcome !== 'allow_server') return
    const grants = this.grants.get(session.id) ?? { tools: new Set(), servers: new Set() }
    if (outcome === 'allow_tool') grants.tools.add(call.tool)
    else grants.servers.add(call.server)
    this.grants.set(session.id, grants)
  }

  private remember(callId: string, answer: { outcome: ConfirmationOutcome; by: ClientRef }): void {
    this.resolved.set(callId, answer)
    if (this.resolved.size > RESOLVED_MEMORY) {
      const oldest = this.resolved.keys().next().value
      if (oldest !== undefined) this.resolved.delete(oldest)
    }
  }
}
