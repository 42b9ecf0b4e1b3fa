// Confirmations: which calls need one, asking every attached client, first answer wins, and the
// "always allow" grants that answers create (kept in the grant book), which the person can list
// and revoke. A gateway client answers only its own calls' questions, and its grants are its own.

import { ErrorCode, FerryError } from '../errors.js'
import type {
  ClientRef,
  ConfirmationOutcome,
  GrantInfo,
  TranscriptEvent,
} from '../protocol/index.js'
import {
  coverageOf,
  grantInfo,
  grantName,
  GrantBook,
  type Grant,
  type GrantedCall,
} from './grant-book.js'
import type { Session } from './session.js'

export interface ToolUnderCall extends GrantedCall {
  readOnlyHint: boolean | undefined
  serverTrusted: boolean
}

/** A confirmation nobody can give any more: the caller cannot answer and every answerer left. */
export const UNANSWERABLE = 'unanswerable'
export type AskOutcome = ConfirmationOutcome | typeof UNANSWERABLE

interface Pending {
  session: Session
  call: ToolUnderCall
  /** Who made the call. */
  caller: ClientRef
  callerCanAnswer: boolean
  resolve: (outcome: AskOutcome) => void
  reject: (error: unknown) => void
}

/** A question as recorded: what an "always" answer to it allows. */
type Asked = Pick<Grant, 'server' | 'serverFingerprint' | 'toolFingerprint'> & { tool: string }

/** Answers are remembered this long after the fact, to tell late clients who answered. */
const RESOLVED_MEMORY = 1000

/** Who Ferry itself is, for a grant recorded without its giver (never given that way now). */
const UNKNOWN_GIVER: ClientRef = { id: 'ferry', kind: 'api', label: 'Ferry' }

export class PermissionBroker {
  private readonly book = new GrantBook()
  private readonly pending = new Map<string, Pending>()
  private readonly resolved = new Map<string, { outcome: ConfirmationOutcome; by: ClientRef }>()

  /**
   * Whether `caller`'s call must be asked about. A grant covering the caller that no longer
   * matches the server or the tool lapses here: it is revoked, and the transcript says why.
   */
  async needsConfirmation(
    session: Session,
    call: ToolUnderCall,
    caller: ClientRef,
  ): Promise<boolean> {
    if (call.serverTrusted || call.readOnlyHint === true) return false
    const { granted, lapses } = this.book.check(session.id, call, caller)
    for (const { grant, reason } of lapses) await this.recordRevoked(session, grant, reason, null)
    return !granted
  }

  /** Records the request and resolves with the first answer any client gives. */
  async ask(
    session: Session,
    callId: string,
    call: ToolUnderCall,
    caller: ClientRef,
    callerCanAnswer = false,
  ): Promise<AskOutcome> {
    const outcome = new Promise<AskOutcome>((resolve, reject) => {
      this.pending.set(callId, { session, call, caller, callerCanAnswer, resolve, reject })
    })
    // Rejected only when the answer cannot be recorded; the caller awaits it below or has failed.
    outcome.catch(() => {})
    try {
      await session.emit(
        {
          type: 'confirmation.requested',
          callId,
          tool: call.tool,
          server: call.server,
          serverFingerprint: call.serverFingerprint,
          toolFingerprint: call.toolFingerprint,
        },
        caller,
      )
    } catch (error) {
      this.pending.delete(callId)
      throw error
    }
    return outcome
  }

  /**
   * An answer from any client; a second answer gets a Conflict naming the first. A gateway client
   * may answer only the confirmation of its own call.
   */
  async answer(callId: string, outcome: ConfirmationOutcome, by: ClientRef): Promise<void> {
    const done = this.resolved.get(callId)
    if (done !== undefined) {
      throw new FerryError(
        ErrorCode.Conflict,
        `already resolved by ${done.by.label}: ${done.outcome.replace('_', ' ')}`,
      )
    }
    const pending = this.pending.get(callId)
    if (pending === undefined || (by.kind === 'mcp' && by.id !== pending.caller.id)) {
      throw new FerryError(ErrorCode.NotFound, `no confirmation is pending for call ${callId}`)
    }
    this.pending.delete(callId)
    this.remember(callId, { outcome, by })
    let stored: TranscriptEvent
    try {
      stored = await pending.session.emit({ type: 'confirmation.resolved', callId, outcome }, by)
    } catch (error) {
      // An answer that cannot be recorded grants nothing and ends the call; it never runs unrecorded.
      pending.reject(error)
      throw error
    }
    this.grant(pending.session.id, callId, outcome, pending.call, stored)
    pending.resolve(outcome)
  }

  /** The call ended another way (cancelled) while waiting: nobody can answer it any more. */
  withdraw(callId: string): void {
    const pending = this.pending.get(callId)
    if (pending === undefined) return
    this.pending.delete(callId)
    pending.resolve('deny')
  }

  /** Every client that could answer left `session`: questions only they could answer end. */
  answerersLeft(session: Session): void {
    for (const [callId, pending] of this.pending) {
      if (pending.session !== session || pending.callerCanAnswer) continue
      this.pending.delete(callId)
      pending.resolve(UNANSWERABLE)
    }
  }

  /** The grants in force in `session`, oldest first. */
  grants(session: Session): GrantInfo[] {
    return this.book.list(session.id).map((grant) => grantInfo(session.id, grant))
  }

  /**
   * Ends the grants named (all of them when `ids` is undefined), recording each as revoked by
   * `by` (null: by Ferry) with the reason `why` gives for it, which starts from the grant's name
   * (`the "always allow" for tool …`); an unknown id is refused before anything is revoked.
   */
  async revoke(
    session: Session,
    ids: readonly string[] | undefined,
    by: ClientRef | null,
    why: (name: string, grant: Grant) => string,
  ): Promise<GrantInfo[]> {
    const unknown = ids?.filter((id) => this.book.get(session.id, id) === undefined) ?? []
    if (unknown.length > 0) {
      throw new FerryError(
        ErrorCode.NotFound,
        `no grant ${unknown.join(', ')} in session ${session.id}; \`ferry grants\` lists them`,
      )
    }
    const grants =
      ids?.map((id) => this.book.get(session.id, id) as Grant) ?? this.book.list(session.id)
    const revoked: GrantInfo[] = []
    for (const grant of grants) {
      revoked.push(grantInfo(session.id, grant))
      await this.recordRevoked(session, grant, why(grantName(grant), grant), by)
    }
    return revoked
  }

  /** The ids of the grants in `session` that `client` gave. */
  givenBy(session: Session, client: string): string[] {
    return this.book
      .list(session.id)
      .filter((grant) => grant.givenBy.id === client)
      .map((grant) => grant.id)
  }

  /**
   * Rebuilds a session's grants from its transcript (after a restart), bound to the fingerprints
   * each question recorded and to who answered; a revocation recorded later ends one again.
   */
  restore(session: Session): void {
    const asked = new Map<string, Asked>()
    for (const event of session.eventsAfter(0)) {
      if (event.type === 'confirmation.requested') {
        asked.set(event.callId, {
          tool: event.tool,
          server: event.server,
          serverFingerprint: event.serverFingerprint,
          toolFingerprint: event.toolFingerprint,
        })
      } else if (event.type === 'confirmation.resolved') {
        const call = asked.get(event.callId)
        if (call !== undefined) this.grant(session.id, event.callId, event.outcome, call, event)
      } else if (event.type === 'grant.revoked') {
        this.book.remove(session.id, event.grantId)
      }
    }
  }

  /** Drops the grant and records why; the record is what keeps it revoked across a restart. */
  private async recordRevoked(
    session: Session,
    grant: Grant,
    reason: string,
    by: ClientRef | null,
  ): Promise<void> {
    this.book.remove(session.id, grant.id)
    await session.emit(
      {
        type: 'grant.revoked',
        grantId: grant.id,
        scope: grant.scope,
        tool: grant.tool,
        server: grant.server,
        reason,
      },
      by,
    )
  }

  private grant(
    session: string,
    callId: string,
    outcome: ConfirmationOutcome,
    call: Asked,
    answer: Pick<TranscriptEvent, 'client' | 'time' | 'seq'>,
  ): void {
    if (outcome !== 'allow_tool' && outcome !== 'allow_server') return
    const givenBy = answer.client ?? UNKNOWN_GIVER
    this.book.give(session, {
      id: callId,
      scope: outcome === 'allow_tool' ? 'tool' : 'server',
      tool: outcome === 'allow_tool' ? call.tool : null,
      server: call.server,
      serverFingerprint: call.serverFingerprint,
      toolFingerprint: outcome === 'allow_tool' ? call.toolFingerprint : undefined,
      givenBy,
      coversClient: coverageOf(givenBy),
      since: answer.time,
      seq: answer.seq,
    })
  }

  private remember(callId: string, answer: { outcome: ConfirmationOutcome; by: ClientRef }): void {
    this.resolved.set(callId, answer)
    if (this.resolved.size > RESOLVED_MEMORY) {
      const oldest = this.resolved.keys().next().value
      if (oldest !== undefined) this.resolved.delete(oldest)
    }
  }
}
