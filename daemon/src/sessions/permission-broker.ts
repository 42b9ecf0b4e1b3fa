// Confirmations: which calls need one, asking every attached client, first answer wins, and the
// session-wide "always allow" grants that answers create, each bound to what the question showed:
// the server's connection fingerprint and, for a tool, its definition.

import { ErrorCode, FerryError } from '../errors.js'
import type { ClientRef, ConfirmationOutcome } from '../protocol/index.js'
import type { Session } from './session.js'

export interface ToolUnderCall {
  /** Qualified name. */
  tool: string
  server: string
  readOnlyHint: boolean | undefined
  serverTrusted: boolean
  /** The server's connection fingerprint (command, arguments, environment; or URL and headers). */
  serverFingerprint: string
  /** The tool's definition fingerprint (name, input schema, annotations). */
  toolFingerprint: string
}

/** A confirmation nobody can give any more: the caller cannot answer and every answerer left. */
export const UNANSWERABLE = 'unanswerable'
export type AskOutcome = ConfirmationOutcome | typeof UNANSWERABLE

interface Pending {
  session: Session
  call: ToolUnderCall
  callerCanAnswer: boolean
  resolve: (outcome: AskOutcome) => void
  reject: (error: unknown) => void
}

/** What a grant was given for; undefined fingerprints (an old transcript) match nothing. */
interface ServerGrant {
  serverFingerprint: string | undefined
}

interface ToolGrant extends ServerGrant {
  server: string
  toolFingerprint: string | undefined
}

/** A question as recorded: what an "always" answer to it allows. */
interface Asked extends ToolGrant {
  tool: string
}

interface Grants {
  /** By qualified tool name. */
  tools: Map<string, ToolGrant>
  /** By server name. */
  servers: Map<string, ServerGrant>
}

/** Answers are remembered this long after the fact, to tell late clients who answered. */
const RESOLVED_MEMORY = 1000

const UNRECORDED = 'it was given before Ferry recorded what an "always" answer allows'

export class PermissionBroker {
  private readonly grants = new Map<string, Grants>()
  private readonly pending = new Map<string, Pending>()
  private readonly resolved = new Map<string, { outcome: ConfirmationOutcome; by: ClientRef }>()

  /**
   * Whether the call must be asked about. A grant that no longer matches the server or the tool
   * lapses here: it is dropped and the transcript gets a notice saying why.
   */
  async needsConfirmation(session: Session, call: ToolUnderCall): Promise<boolean> {
    if (call.serverTrusted || call.readOnlyHint === true) return false
    const grants = this.grants.get(session.id)
    if (grants === undefined) return true
    const lapses: string[] = []
    let granted = false
    const server = grants.servers.get(call.server)
    if (server !== undefined) {
      if (server.serverFingerprint === call.serverFingerprint) granted = true
      else {
        grants.servers.delete(call.server)
        lapses.push(
          `the "always allow" for server "${call.server}" lapsed: ${
            server.serverFingerprint === undefined
              ? UNRECORDED
              : 'its command or connection settings changed'
          }`,
        )
      }
    }
    const tool = grants.tools.get(call.tool)
    if (tool !== undefined) {
      const why =
        tool.serverFingerprint === undefined || tool.toolFingerprint === undefined
          ? UNRECORDED
          : tool.server !== call.server || tool.serverFingerprint !== call.serverFingerprint
            ? `its server "${call.server}" changed its command or connection settings`
            : tool.toolFingerprint !== call.toolFingerprint
              ? 'the server changed its definition (input schema or annotations)'
              : undefined
      if (why === undefined) granted = true
      else {
        grants.tools.delete(call.tool)
        lapses.push(`the "always allow" for tool ${call.tool} lapsed: ${why}`)
      }
    }
    for (const message of lapses) {
      await session.emit(
        { type: 'notice', level: 'warning', message: `${message}; it is asked about again` },
        null,
      )
    }
    return !granted
  }

  /** Records the request and resolves with the first answer any client gives. */
  async ask(
    session: Session,
    callId: string,
    call: ToolUnderCall,
    client: ClientRef,
    callerCanAnswer = false,
  ): Promise<AskOutcome> {
    const outcome = new Promise<AskOutcome>((resolve, reject) => {
      this.pending.set(callId, { session, call, callerCanAnswer, resolve, reject })
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
        client,
      )
    } catch (error) {
      this.pending.delete(callId)
      throw error
    }
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
    try {
      await pending.session.emit({ type: 'confirmation.resolved', callId, outcome }, by)
    } catch (error) {
      // An answer that cannot be recorded grants nothing and ends the call; it never runs unrecorded.
      pending.reject(error)
      throw error
    }
    this.grant(pending.session, outcome, pending.call)
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

  /**
   * Rebuilds a session's "always allow" grants from its transcript (after a restart), bound to the
   * fingerprints each question recorded; a question recorded without them grants nothing that holds.
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
        if (call !== undefined) this.grant(session, event.outcome, call)
      }
    }
  }

  private grant(session: Session, outcome: ConfirmationOutcome, call: Asked): void {
    if (outcome !== 'allow_tool' && outcome !== 'allow_server') return
    const grants = this.grants.get(session.id) ?? { tools: new Map(), servers: new Map() }
    if (outcome === 'allow_tool') {
      grants.tools.set(call.tool, {
        server: call.server,
        serverFingerprint: call.serverFingerprint,
        toolFingerprint: call.toolFingerprint,
      })
    } else {
      grants.servers.set(call.server, { serverFingerprint: call.serverFingerprint })
    }
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
