// Runs tool calls inside sessions: the one path every client's call takes. It checks the arguments,
// records the request, passes the permission broker, runs the call on its connection (the server's
// questions going to the input broker), and records progress and the outcome as transcript events.

import type { Ferry } from '../core/ferry.js'
import { ErrorCode, FerryError, toFerryError } from '../errors.js'
import { randomHex } from '../ids.js'
import type { Log } from '../log.js'
import type { CallToolResult, ClientRef, ConfirmationOutcome } from '../protocol/index.js'
import type { ElicitationAsker, SamplingAsker, RootsAsker } from '../mcp/call-asker.js'
import type { RegistryEntry } from '../tools/registry.js'
import { ArgumentCheck, type CallRequested } from './argument-check.js'
import type { InputBroker } from './input-broker.js'
import { UNANSWERABLE, type PermissionBroker, type ToolUnderCall } from './permission-broker.js'
import type { Session } from './session.js'

export interface CallInput {
  tool: string
  arguments: Record<string, unknown>
  client: ClientRef
  timeoutMs?: number | undefined
  /** Caller-chosen id (else generated), used to cancel or answer. */
  callId?: string | undefined
  /** `allow_once` answers the confirmation up front (`ferry call --yes`). */
  preapproved?: boolean | undefined
  /** Whether the caller itself can answer a confirmation (an interactive terminal). */
  callerCanAnswer?: boolean | undefined
  /** How many attached clients could answer, asked when a confirmation is needed. */
  answerers?: (() => number) | undefined
  /** Who answers the server's form questions during the call (a gateway client that can). */
  elicit?: ElicitationAsker | undefined
  /** Who answers the server's sampling requests during the call (a gateway client that can). */
  sample?: SamplingAsker | undefined
  /** The caller's roots (a gateway client that declared them), for `"roots": "client"`. */
  roots?: RootsAsker | undefined
  /** Why the caller cannot answer them itself (a gateway client), when nobody else can either. */
  elicitUnavailable?: string | undefined
  /** The caller answers the server's questions of this call itself (an interactive terminal). */
  callerAnswersInputs?: boolean | undefined
  /**
   * An MCP App of `server` makes the call (through its tab, the `client`): `tool` is the server's
   * own tool name, looked up for Apps, and `call.requested` names the call that rendered it.
   */
  app?: { parentCallId: string; server: string } | undefined
}

/** Where a call went once it passed its confirmation. */
interface Sent {
  server: string
  session: Session
}

/** A call from its start to its end. */
interface Running {
  controller: AbortController
  session: Session
  /** Who made it. */
  client: ClientRef
  cancelledBy?: ClientRef
  sent?: Sent
}

/** The call needed no confirmation. */
const NOT_ASKED = 'not_asked'

export const DENIED_RESULT: CallToolResult = {
  content: [{ type: 'text', text: 'denied by user' }],
  isError: true,
}

export class CallRunner {
  private readonly running = new Map<string, Running>()
  private readonly argumentCheck: ArgumentCheck

  constructor(
    private readonly ferry: Ferry,
    private readonly broker: PermissionBroker,
    private readonly inputs: InputBroker,
    private readonly log: Log,
  ) {
    this.argumentCheck = new ArgumentCheck(log)
  }

  newCallId(): string {
    return randomHex(12)
  }

  /** Runs the call; resolves with its model-visible result, rejects with a FerryError. */
  async run(
    session: Session,
    input: CallInput,
  ): Promise<{ callId: string; result: CallToolResult }> {
    const entry = this.lookup(input.tool, input)
    const callId = input.callId ?? this.newCallId()
    const requested: CallRequested = {
      type: 'call.requested',
      callId,
      tool: entry.name,
      server: entry.server,
      serverTool: entry.tool,
      arguments: input.arguments,
      ...(input.app === undefined ? {} : { app: { parentCallId: input.app.parentCallId } }),
    }
    // Refused before anything is recorded: what the person is shown is what the server would get.
    this.argumentCheck.check(entry.definition, requested, input.client)
    if (this.running.has(callId)) {
      throw new FerryError(ErrorCode.Conflict, `a call with id ${callId} is already running`)
    }
    const controller = new AbortController()
    const run: Running = { controller, session, client: input.client }
    this.running.set(callId, run)
    try {
      await session.emit(requested, input.client)
      const call: ToolUnderCall = {
        tool: entry.name,
        server: entry.server,
        readOnlyHint: entry.annotations.readOnlyHint,
        serverTrusted: entry.serverTrusted,
        serverFingerprint: entry.serverFingerprint,
        toolFingerprint: entry.toolFingerprint,
      }
      const outcome = await this.confirm(session, callId, call, input, controller.signal)
      if (outcome === 'deny') {
        await session.emit(
          { type: 'call.result', callId, result: DENIED_RESULT, display: { type: 'plain' } },
          null,
        )
        return { callId, result: DENIED_RESULT }
      }
      if (outcome !== NOT_ASKED) this.unchangedSince(entry, input)
      run.sent = { server: entry.server, session }
      const result = await this.ferry.call(entry, input.arguments, {
        signal: controller.signal,
        timeoutMs: input.timeoutMs,
        asker: this.inputs.asker(
          {
            session,
            callId,
            server: entry.server,
            callerCanAnswer: input.callerAnswersInputs === true,
            callerUnable: input.elicitUnavailable,
          },
          input.elicit,
          input.sample,
          input.roots,
        ),
        onProgress: (p) =>
          void session
            .progress({
              type: 'call.progress',
              callId,
              progress: p.progress,
              ...(p.total === undefined ? {} : { total: p.total }),
              ...(p.message === undefined ? {} : { message: p.message }),
            })
            .catch(() => {}),
      })
      // The App (if any) is loaded before the result is stored, so every client sees one event;
      // the model-visible result stays exactly what the server returned.
      const display = await this.ferry.apps.display(
        entry,
        input.arguments,
        result,
        controller.signal,
      )
      // The caller gets what is stored: a result over the event bounds comes back shortened.
      const stored = await session.emit({ type: 'call.result', callId, result, display }, null)
      return { callId, result: stored.result }
    } catch (error) {
      const context = { where: 'call', session: session.id, callId }
      const failure = toFerryError(error, this.log, context)
      const end =
        failure.code === ErrorCode.ToolCancelled
          ? ({ type: 'call.cancelled', callId } as const)
          : ({
              type: 'call.failed',
              callId,
              error: { code: failure.code, message: failure.message },
            } as const)
      // A cancel names who asked for it; a call that ended otherwise is the daemon's own record.
      await session
        .emit(end, end.type === 'call.cancelled' ? (run.cancelledBy ?? null) : null)
        .catch((unstored: unknown) => toFerryError(unstored, this.log, context))
      throw failure
    } finally {
      this.running.delete(callId)
    }
  }

  /** The calls sent to `server` and not settled yet, with their sessions. */
  runningOn(server: string): { callId: string; session: Session }[] {
    return [...this.running].flatMap(([callId, run]) =>
      run.sent?.server === server ? [{ callId, session: run.sent.session }] : [],
    )
  }

  /** Stops a running call (also one still waiting for its confirmation); `by` is recorded. */
  cancel(callId: string, by?: ClientRef): void {
    const run = this.running.get(callId)
    if (run === undefined) {
      throw new FerryError(ErrorCode.NotFound, `no running call with id ${callId}`)
    }
    if (!run.controller.signal.aborted && by !== undefined) run.cancelledBy = by
    run.controller.abort()
    this.broker.withdraw(callId)
  }

  /**
   * Stops every running call `client` made (it may no longer act), recorded as Ferry's cancel;
   * returns them with the sessions they run in.
   */
  cancelCallsOf(client: string): { callId: string; session: Session }[] {
    const calls = [...this.running].flatMap(([callId, run]) =>
      run.client.id === client ? [{ callId, session: run.session }] : [],
    )
    for (const { callId } of calls) this.cancel(callId)
    return calls
  }

  /**
   * The answer was given about the tool as it was looked up; if its server reconnected with other
   * settings or it changed its definition meanwhile, the call stops before reaching the server.
   */
  private unchangedSince(entry: RegistryEntry, input: CallInput): void {
    const now = this.lookup(input.app === undefined ? entry.name : entry.tool, input)
    if (
      now.server !== entry.server ||
      now.serverFingerprint !== entry.serverFingerprint ||
      now.toolFingerprint !== entry.toolFingerprint
    ) {
      throw new FerryError(
        ErrorCode.Conflict,
        `${entry.name} changed while its confirmation was pending (its server's settings or its definition); it was not called, call it again to be asked about it as it is now`,
      )
    }
  }

  /** A model's or the CLI's tool by qualified name; an App's by its server's own tool name. */
  private lookup(tool: string, input: CallInput): RegistryEntry {
    return input.app === undefined
      ? this.ferry.lookup(tool)
      : this.ferry.lookupForApp(input.app.server, tool)
  }

  private async confirm(
    session: Session,
    callId: string,
    call: ToolUnderCall,
    input: CallInput,
    signal: AbortSignal,
  ): Promise<ConfirmationOutcome | typeof NOT_ASKED> {
    if (!(await this.broker.needsConfirmation(session, call, input.client))) return NOT_ASKED
    // A cancel that came while the call was being recorded had no question to withdraw: ask none.
    if (signal.aborted) {
      throw new FerryError(ErrorCode.ToolCancelled, `call to ${call.tool} was cancelled`)
    }
    if (input.preapproved === true) {
      const asked = this.broker.ask(session, callId, call, input.client, true)
      await this.broker.answer(callId, 'allow_once', input.client).catch(() => {})
      return (await asked) === 'deny' ? 'deny' : 'allow_once'
    }
    if (input.callerCanAnswer !== true && (input.answerers?.() ?? 0) === 0) {
      throw new FerryError(
        ErrorCode.ConfirmationUnavailable,
        `${call.tool} needs a confirmation and no attached client can give it; answer with --yes, call from a terminal, or attach one with \`ferry attach\``,
      )
    }
    const outcome = await this.broker.ask(
      session,
      callId,
      call,
      input.client,
      input.callerCanAnswer === true,
    )
    if (signal.aborted) {
      throw new FerryError(ErrorCode.ToolCancelled, `call to ${call.tool} was cancelled`)
    }
    if (outcome === UNANSWERABLE) {
      throw new FerryError(
        ErrorCode.ConfirmationUnavailable,
        `${call.tool} needs a confirmation and the last client that could give it detached; answer with --yes or attach a terminal`,
      )
    }
    return outcome
  }
}
