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
  type GetPromptResult,
  type InputRequiredResult,
  type InputRequests,
  type RequestStateCodec,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server'
import { writePrivateFile } from '../fs/private-file.js'
import type { Log } from '../log.js'
import { errorMessage } from '../errors.js'
import type {
  ElicitationAsker,
  RootsAsker,
  SamplingAnswer,
  SamplingAsker,
} from '../mcp/call-asker.js'
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

/** Who answers a server's questions during one request: the client's askers, or why not it. */
export type ClientAskers = Pick<
  GatewayCallHooks,
  'elicit' | 'sample' | 'roots' | 'elicitUnavailable'
>

/** One request of a gateway client whose server may ask it for input. */
export interface ElicitationExchange<R> {
  sessions: SessionsApi
  log: Log
  view: ClientView
  /** The client's server instance: a legacy client's capabilities come from its `initialize`. */
  server: Server
  /** The tool or prompt as the client named it; a retry must name the same. */
  name: string
  ctx: ServerContext
  /** Runs the request with who answers the server's questions. */
  run: (ctx: ServerContext, askers: ClientAskers) => Promise<R>
}

export interface ElicitationCall extends Omit<ElicitationExchange<CallToolResult>, 'run'> {
  args: Record<string, unknown>
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
    // An unknown tool is refused before anything is set up for it.
    if (state === undefined) call.view.lookup(call.name)
    const callId = state?.callId ?? call.sessions.newCallId()
    return this.rounds<CallToolResult>({
      ...call,
      id: callId,
      run: (ctx, askers) =>
        call.run(ctx, {
          callId,
          ...askers,
          // With `--confirm-in-client` the client's user can answer, so nobody else need be there.
          callerCanAnswer: call.view.grant.confirmInClient && askers.elicit !== undefined,
        }),
      around: (ask, run) => this.withConfirmation(call, callId, ask, run),
    })
  }

  /**
   * Serves one `prompts/get`, whose server may ask for input before it answers: the questions go
   * to the client as a call's do (in rounds, on a 2026-07-28 request), else to the people.
   */
  servePrompt(
    get: ElicitationExchange<GetPromptResult>,
  ): Promise<GetPromptResult | InputRequiredResult> {
    return this.rounds({ ...get, id: `prompt-${randomBytes(8).toString('hex')}` })
  }

  /**
   * One request whose server may ask the client: a first round, a retry with answers, or one
   * with no questions. A client that declared neither form elicitation nor sampling (or a
   * stateless legacy one, which cannot be asked) leaves the questions to the people in Ferry.
   */
  private async rounds<R extends CallToolResult | GetPromptResult>(
    x: ElicitationExchange<R> & {
      id: string
      /** Wraps the run once the client can be asked (a confirmation asked of it first). */
      around?: (ask: ElicitationAsker, run: () => Promise<R>) => Promise<R>
    },
  ): Promise<R | InputRequiredResult> {
    const state = x.ctx.mcpReq.requestState<RoundState>()
    if (state !== undefined) return this.retry(x, state)
    const { ctx, view } = x
    // A 2026-07-28 request carries the client's capabilities itself; a legacy one had them once.
    const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined
    const modern = envelope?.[PROTOCOL_VERSION_META_KEY] !== undefined
    const capabilities = requestCapabilities(x.server, ctx)
    const client = gatewayClientRef(view)
    const noSession = !modern && ctx.sessionId === undefined
    const formUnavailable = !declaresForm(capabilities)
      ? `${client.label} did not declare elicitation (form)`
      : noSession
        ? `${client.label} has no session (its legacy requests are served statelessly), so a question cannot reach it`
        : undefined
    const canSample = capabilities?.sampling !== undefined && !noSession
    const canGiveRoots = capabilities?.roots !== undefined && !noSession
    // A client that cannot be asked leaves the server's questions to the people in Ferry.
    if (formUnavailable !== undefined && !canSample && !canGiveRoots) {
      return x.run(ctx, { elicitUnavailable: formUnavailable })
    }
    const session = await x.sessions.resolve(view.grant.session ?? undefined)
    const askersOf = (
      ask: ElicitationAsker,
      sample: SamplingAsker,
      roots: RootsAsker,
    ): ClientAskers => ({
      ...(formUnavailable === undefined
        ? { elicit: this.forwarding(session, x, ask) }
        : { elicitUnavailable: formUnavailable }),
      ...(canSample ? { sample: this.samplingForwarding(session, x, sample) } : {}),
      // Only a server whose settings say `"roots": "client"` ever asks for these.
      ...(canGiveRoots
        ? {
            roots: (signal: AbortSignal) => {
              note(session, x, 'info', `asked ${client.label} for its roots`)
              return roots(signal)
            },
          }
        : {}),
    })
    const around = (ask: ElicitationAsker, run: () => Promise<R>) =>
      formUnavailable === undefined && x.around !== undefined ? x.around(ask, run) : run()
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
      const roots: RootsAsker = async (signal) =>
        (
          await x.server.listRoots(undefined, {
            signal,
            relatedRequestId: ctx.mcpReq.id,
            timeout: LEGACY_ANSWER_MS,
          })
        ).roots
      const askers = askersOf(ask, sample, roots)
      return around(ask, () => x.run(ctx, askers))
    }
    const parked = new ParkedCall<R>(x.id, x.name, view.grant.name, () => this.parked.delete(x.id))
    this.parked.set(x.id, parked as unknown as ParkedCall)
    // A client may answer in its first request what it expects the server to ask.
    parked.prefill(ctx.mcpReq.inputResponses)
    const ask: ElicitationAsker = (question, signal) => parked.ask(question, signal)
    const runCtx = parked.callContext(ctx)
    const askers = askersOf(
      ask,
      (params, signal, key) => parked.askSampling(params, signal, key),
      (signal) => parked.askRoots(signal),
    )
    parked.start(() => around(ask, () => x.run(runCtx, askers)))
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

  private async retry<R extends CallToolResult | GetPromptResult>(
    x: ElicitationExchange<R>,
    state: RoundState,
  ): Promise<R | InputRequiredResult> {
    const found = this.parked.get(state.callId) as ParkedCall<R> | undefined
    const parked = found?.client === x.view.grant.name ? found : undefined
    if (parked === undefined) {
      const [what, again] =
        x.ctx.mcpReq.method === 'prompts/get' ? ['prompt get', 'get'] : ['call', 'call']
      throw new ProtocolError(
        INVALID_PARAMS,
        `the ${what} these answers belong to (${state.callId}) is no longer waiting for them: it ended, or Ferry restarted; ${again} ${state.tool} again`,
      )
    }
    if (parked.isTask) {
      throw new ProtocolError(
        INVALID_PARAMS,
        `the call these answers belong to (${state.callId}) became a task: follow it with tasks/get and answer its questions with tasks/update`,
      )
    }
    if (x.name !== parked.tool) {
      throw new ProtocolError(
        INVALID_PARAMS,
        `these answers belong to ${parked.tool}, not ${x.name}; retry ${parked.tool} with them`,
      )
    }
    parked.answer(x.ctx.mcpReq.inputResponses)
    return this.round(parked, x.ctx)
  }

  private async round<R extends CallToolResult | GetPromptResult>(
    parked: ParkedCall<R>,
    ctx: ServerContext,
  ): Promise<R | InputRequiredResult> {
    const outcome = await parked.round(ctx)
    if (outcome.kind === 'result') return outcome.result
    // Nobody reads it: the round's request was answered with the task.
    if (outcome.kind === 'detached') return { content: [] } as unknown as R
    const requestState = await this.codec.mint(
      { callId: parked.callId, tool: parked.tool, round: parked.nextRound() },
      ctx,
    )
    return inputRequired({ inputRequests: outcome.inputRequests, requestState })
  }

  /** Confirmations asked of the client's user too, when its token says so. */
  private async withConfirmation(
    call: ElicitationCall,
    callId: string,
    ask: ElicitationAsker,
    run: () => Promise<CallToolResult>,
  ): Promise<CallToolResult> {
    if (!call.view.grant.confirmInClient) return run()
    const session = await call.sessions.resolve(call.view.grant.session ?? undefined)
    return confirmInClient({ ...call, session, callId, ask }, run)
  }

  /** Sampling requests go to the client, and the transcript says so. */
  private samplingForwarding(
    session: SessionHandle,
    call: ElicitationExchange<unknown>,
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
    call: ElicitationExchange<unknown>,
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
  call: ElicitationExchange<unknown>,
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
