// Elicitation through the gateway: a form question or sampling request an upstream server makes
// during a gateway call goes to the calling client when it declared that kind (legacy: a request
// on its session; 2026-07-28: input-required rounds of the one call, linked by a signed
// `requestState`), and to the people in Ferry (the input broker) otherwise. Owns the state key and
// the calls between rounds.

import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import {
  INVALID_PARAMS,
  createRequestStateCodec,
  inputRequired,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  type CallToolResult,
  type ClientCapabilities,
  type InputRequiredResult,
  type InputRequests,
  type RequestStateCodec,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server'
import { writePrivateFile } from '../fs/private-file.js'
import type { Log } from '../log.js'
import { errorMessage } from '../errors.js'
import type { ElicitationAsker, SamplingAnswer, SamplingAsker } from '../mcp/call-asker.js'
import type { SessionHandle, SessionsApi } from '../service/ferry-service.js'
import { confirmInClient } from './client-confirmation.js'
import { requestCapabilities, type ClientView } from './client-view.js'
import { gatewayClientRef, type GatewayCallHooks } from './gateway-call.js'
import { ParkedCall, ROUND_WAIT_MS } from './parked-call.js'

export const REQUEST_STATE_KEY_FILE = 'gateway-request-state.key'

/** How long a legacy client's user has to answer one question. */
export const LEGACY_ANSWER_MS = 600_000

/** What a round's `requestState` carries (signed, readable by the client). */
interface RoundState {
  callId: string
  tool: string
  /** Which round of the call it is: each round's state is its own. */
  round: number
}

export interface ElicitationCall {
  sessions: SessionsApi
  log: Log
  view: ClientView
  /** The client's server instance: a legacy client's capabilities come from its `initialize`. */
  server: Server
  name: string
  args: Record<string, unknown>
  ctx: ServerContext
  run: (ctx: ServerContext, hooks: GatewayCallHooks) => Promise<CallToolResult>
}

/** Form elicitation: a bare `elicitation: {}` means form, else `form` must be listed. */
function declaresForm(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation as Record<string, unknown> | undefined
  if (typeof elicitation !== 'object' || elicitation === null) return false
  return 'form' in elicitation || !('url' in elicitation)
}

/** Reads the state key, or makes one: 32 random bytes, only the owner may read them. */
async function stateKey(stateDir: string, log: Log): Promise<Uint8Array> {
  const path = join(stateDir, REQUEST_STATE_KEY_FILE)
  const text = await readFile(path, 'utf8').catch(() => undefined)
  if (text !== undefined && /^[0-9a-f]{64}$/.test(text.trim())) {
    return Buffer.from(text.trim(), 'hex')
  }
  if (text !== undefined) log({ kind: 'gateway.request_state_key_replaced' })
  const key = randomBytes(32)
  await writePrivateFile(path, `${key.toString('hex')}\n`)
  return key
}

export class GatewayElicitation {
  private readonly parked = new Map<string, ParkedCall>()

  private constructor(private readonly codec: RequestStateCodec<RoundState>) {}

  static async open(stateDir: string, log: Log): Promise<GatewayElicitation> {
    const codec = createRequestStateCodec<RoundState>({
      key: await stateKey(stateDir, log),
      ttlSeconds: ROUND_WAIT_MS / 1000,
      // A round's state is good only for the client it was given to, on `tools/call`.
      bind: (ctx) => `${ctx.mcpReq.method}\0${ctx.http?.authInfo?.clientId ?? ''}`,
    })
    return new GatewayElicitation(codec)
  }

  /** For `ServerOptions.requestState.verify`: a tampered or expired state gets -32602. */
  readonly verify = (state: string, ctx: ServerContext): Promise<RoundState> =>
    this.codec.verify(state, ctx)

  /** Serves one `tools/call`: a first round, a retry with answers, or a call with no questions. */
  async serve(call: ElicitationCall): Promise<CallToolResult | InputRequiredResult> {
    const state = call.ctx.mcpReq.requestState<RoundState>()
    if (state !== undefined) return this.retry(call, state)
    const { ctx, view } = call
    // An unknown tool is refused before anything is set up for it.
    view.lookup(call.name)
    // A 2026-07-28 request carries the client's capabilities itself; a legacy one had them once.
    const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined
    const modern = envelope?.[PROTOCOL_VERSION_META_KEY] !== undefined
    const capabilities = requestCapabilities(call.server, ctx)
    const callId = call.sessions.newCallId()
    const session = await call.sessions.resolve(view.grant.session ?? undefined)
    const client = gatewayClientRef(view)
    const noSession = !modern && ctx.sessionId === undefined
    const formUnavailable = !declaresForm(capabilities)
      ? `${client.label} did not declare elicitation (form)`
      : noSession
        ? `${client.label} has no session (its legacy requests are served statelessly), so a question cannot reach it`
        : undefined
    const canSample = capabilities?.sampling !== undefined && !noSession
    // A client that cannot be asked leaves the server's questions to the people in Ferry.
    if (formUnavailable !== undefined && !canSample) {
      return call.run(ctx, { callId, elicitUnavailable: formUnavailable })
    }
    const hooksOf = (ask: ElicitationAsker, sample: SamplingAsker): GatewayCallHooks => ({
      callId,
      ...(formUnavailable === undefined
        ? { elicit: this.forwarding(session, call, ask) }
        : { elicitUnavailable: formUnavailable }),
      ...(canSample ? { sample: this.samplingForwarding(session, call, sample) } : {}),
      // With `--confirm-in-client` the client's user can answer, so nobody else need be attached.
      callerCanAnswer: view.grant.confirmInClient && formUnavailable === undefined,
    })
    const confirmed = (ask: ElicitationAsker, run: () => Promise<CallToolResult>) =>
      formUnavailable === undefined ? this.withConfirmation(call, session, callId, ask, run) : run()
    if (!modern) {
      const ask: ElicitationAsker = ({ message, requestedSchema }, signal) =>
        ctx.mcpReq.elicitInput(
          { mode: 'form', message, requestedSchema },
          { signal, timeout: LEGACY_ANSWER_MS, resetTimeoutOnProgress: true },
        )
      const sample: SamplingAsker = async (params, signal) => {
        try {
          const result = await ctx.mcpReq.requestSampling(params, {
            signal,
            timeout: LEGACY_ANSWER_MS,
            resetTimeoutOnProgress: true,
          })
          // The client's reply goes to the server as given (a reply with tool use included).
          return { result } as SamplingAnswer
        } catch (error) {
          return { refused: `${client.label} gave none: ${errorMessage(error)}` }
        }
      }
      const hooks = hooksOf(ask, sample)
      return confirmed(ask, () => call.run(ctx, hooks))
    }
    const parked = new ParkedCall(callId, call.name, view.grant.name, () =>
      this.parked.delete(callId),
    )
    this.parked.set(callId, parked)
    // A client may answer in its first request what it expects the server to ask.
    parked.prefill(ctx.mcpReq.inputResponses)
    const ask: ElicitationAsker = (question, signal) => parked.ask(question, signal)
    const callCtx = parked.callContext(ctx)
    const hooks = hooksOf(ask, (params, signal, key) => parked.askSampling(params, signal, key))
    parked.start(() => confirmed(ask, () => call.run(callCtx, hooks)))
    return this.round(parked, ctx)
  }

  /** The call a `tools/call` retry continues, by its verified `requestState`; else undefined. */
  retriedCall(ctx: ServerContext): string | undefined {
    return ctx.mcpReq.requestState<RoundState>()?.callId
  }

  /**
   * The call became a task (see tasks.ts): its questions now wait for `taskInput` and its answers
   * come through `answerTask`. Nothing to do for a call that never asked its client in rounds.
   */
  detach(callId: string): void {
    this.parked.get(callId)?.detach()
  }

  /** The questions a task's call waits on, for `tasks/get`; undefined when there are none. */
  taskInput(callId: string): InputRequests | undefined {
    return this.parked.get(callId)?.pending()
  }

  /** A task's answers from `tasks/update`; answers to questions no longer open are ignored. */
  answerTask(callId: string, responses: Record<string, unknown> | undefined): void {
    this.parked.get(callId)?.answer(responses)
  }

  /** The daemon stops: calls waiting for their clients end. */
  close(): void {
    for (const parked of [...this.parked.values()]) parked.abandoned()
  }

  private async retry(
    call: ElicitationCall,
    state: RoundState,
  ): Promise<CallToolResult | InputRequiredResult> {
    const found = this.parked.get(state.callId)
    const parked = found?.client === call.view.grant.name ? found : undefined
    if (parked === undefined) {
      throw new ProtocolError(
        INVALID_PARAMS,
        `the call these answers belong to (${state.callId}) is no longer waiting for them: it ended, or Ferry restarted; call ${state.tool} again`,
      )
    }
    if (parked.isTask) {
      throw new ProtocolError(
        INVALID_PARAMS,
        `the call these answers belong to (${state.callId}) became a task: follow it with tasks/get and answer its questions with tasks/update`,
      )
    }
    if (call.name !== parked.tool) {
      throw new ProtocolError(
        INVALID_PARAMS,
        `these answers belong to a call of ${parked.tool}, not ${call.name}; retry ${parked.tool} with them`,
      )
    }
    parked.answer(call.ctx.mcpReq.inputResponses)
    return this.round(parked, call.ctx)
  }

  private async round(
    parked: ParkedCall,
    ctx: ServerContext,
  ): Promise<CallToolResult | InputRequiredResult> {
    const outcome = await parked.round(ctx)
    if (outcome.kind === 'result') return outcome.result
    // Nobody reads it: the round's request was answered with the task.
    if (outcome.kind === 'detached') return { content: [] }
    const requestState = await this.codec.mint(
      { callId: parked.callId, tool: parked.tool, round: parked.nextRound() },
      ctx,
    )
    return inputRequired({ inputRequests: outcome.inputRequests, requestState })
  }

  /** Confirmations asked of the client's user too, when its token says so. */
  private withConfirmation(
    call: ElicitationCall,
    session: SessionHandle,
    callId: string,
    ask: ElicitationAsker,
    run: () => Promise<CallToolResult>,
  ): Promise<CallToolResult> {
    if (!call.view.grant.confirmInClient) return run()
    return confirmInClient({ ...call, session, callId, ask }, run)
  }

  /** Sampling requests go to the client, and the transcript says so. */
  private samplingForwarding(
    session: SessionHandle,
    call: ElicitationCall,
    sample: SamplingAsker,
  ): SamplingAsker {
    return (params, signal, key) => {
      note(session, call, 'info', `asked ${gatewayClientRef(call.view).label} for a model reply`)
      return sample(params, signal, key)
    }
  }

  /** Questions go to the client, and the transcript says so. */
  private forwarding(
    session: SessionHandle,
    call: ElicitationCall,
    ask: ElicitationAsker,
  ): ElicitationAsker {
    return (question, signal) => {
      note(
        session,
        call,
        'info',
        `asked ${gatewayClientRef(call.view).label} for input: ${question.message}`,
      )
      return ask(question, signal)
    }
  }
}

function note(
  session: SessionHandle,
  call: ElicitationCall,
  level: 'info' | 'warning',
  text: string,
): void {
  const message = `the server of ${call.name} ${text}`
  session
    .emit({ type: 'notice', level, message }, null)
    .catch((error: unknown) =>
      call.log({ kind: 'gateway.notice_unrecorded', error: String(error) }),
    )
}
