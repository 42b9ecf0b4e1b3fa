// Requests an upstream server makes of its client, routed to the call that asked: a 2026-07-28
// server's input-required rounds belong to the call they answer, and a legacy server's
// `elicitation/create` or `sampling/createMessage` to the one call running on its connection, or
// to all of them together when several run. `roots/list` is answered from the server's settings.
// A question nobody can be asked is declined with the reason the server receives.

import { ProtocolError, isInputRequiredResult, type Client } from '@modelcontextprotocol/client'
import type {
  CallToolResult,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitRequestParams,
  ElicitRequestURLParams,
  ElicitResult,
  InputRequests,
  InputResponses,
  Root,
} from '@modelcontextprotocol/client'
import { ErrorCode, FerryError } from '../errors.js'
import type { CallTimer } from './call-timer.js'

/** Where a declined (or withdrawn) elicitation's result says why. */
export const DECLINE_REASON_META_KEY = 'ferry/reason'

/** Input-required rounds one call may take before Ferry stops it (the SDK's own default). */
export const MAX_INPUT_ROUNDS = 10

/** The JSON-RPC error code a refused sampling request gets (MCP's "user rejected"). */
export const SAMPLING_REFUSED = -1

/** A form elicitation as the asking server sent it, without its request `_meta`. */
export interface ElicitQuestion {
  message: string
  requestedSchema: ElicitRequestFormParams['requestedSchema']
}

/** A URL elicitation: a page the person may open, outside Ferry. */
export interface UrlQuestion {
  message: string
  url: string
  /** Legacy only: the id a later `notifications/elicitation/complete` names. */
  elicitationId?: string | undefined
}

/** How a sampling request was answered: the reply to send, or why there is none. */
export type SamplingAnswer = { result: CreateMessageResult } | { refused: string }

/**
 * Asks one form question on behalf of a call; resolves with the answer to give the server.
 * `signal` aborts when the answer is no longer wanted (the call ended, or the server withdrew it).
 */
export type ElicitationAsker = (
  question: ElicitQuestion,
  signal: AbortSignal,
) => Promise<ElicitResult>

/** Who answers a call's questions, of every kind a server may ask. */
export interface CallAsker {
  form: ElicitationAsker
  url(question: UrlQuestion, signal: AbortSignal): Promise<ElicitResult>
  sampling(params: CreateMessageRequestParams, signal: AbortSignal): Promise<SamplingAnswer>
  /**
   * One asker for a legacy question that any of several running calls may have asked (this one
   * and `others`), or undefined when they cannot be asked together.
   */
  together?(others: readonly CallAsker[]): CallAsker | undefined
}

export function declined(reason: string): ElicitResult {
  return { action: 'decline', _meta: { [DECLINE_REASON_META_KEY]: reason } }
}

/** Why a question was withdrawn when its call ended. */
export const CALL_ENDED = 'the call it belonged to ended'

function withdrawn(): ElicitResult {
  return { action: 'cancel', _meta: { [DECLINE_REASON_META_KEY]: CALL_ENDED } }
}

type Question =
  | { kind: 'form'; question: ElicitQuestion }
  | { kind: 'url'; question: UrlQuestion }
  | { kind: 'sampling'; params: CreateMessageRequestParams }

/** The question in an elicitation request, or why Ferry cannot ask it. */
function elicitationOf(params: ElicitRequestParams | undefined): Question | string {
  if (params === undefined || typeof params !== 'object') return 'the request had no parameters'
  if (params.mode === 'url') {
    const url = params as ElicitRequestURLParams
    return {
      kind: 'url',
      question: { message: url.message, url: url.url, elicitationId: url.elicitationId },
    }
  }
  const form = params as ElicitRequestFormParams
  return {
    kind: 'form',
    question: { message: form.message, requestedSchema: form.requestedSchema },
  }
}

/** One call running on the connection, and who may answer its questions. */
export class RunningCall {
  private readonly controller = new AbortController()

  constructor(
    readonly tool: string,
    readonly asker: CallAsker | undefined,
    /** The call's own timeout, held while its questions are open. */
    readonly timer?: CallTimer,
  ) {}

  /** Aborts once the call has ended. */
  get signal(): AbortSignal {
    return this.controller.signal
  }

  end(): void {
    this.controller.abort()
  }
}

/** Aborts once every one of `signals` has (a question several calls share ends with the last). */
function allAborted(signals: readonly AbortSignal[]): AbortSignal {
  const controller = new AbortController()
  const check = () => {
    if (signals.every((signal) => signal.aborted)) controller.abort(CALL_ENDED)
  }
  for (const signal of signals) signal.addEventListener('abort', check, { once: true })
  check()
  return controller.signal
}

/** Aborts with `reason` (which the question's record gives) once `signal` does. */
function because(signal: AbortSignal, reason: string): AbortSignal {
  const controller = new AbortController()
  if (signal.aborted) controller.abort(reason)
  else signal.addEventListener('abort', () => controller.abort(reason), { once: true })
  return controller.signal
}

/**
 * Asks through `asker` with the calls' clocks held; once the calls end (or the server withdraws
 * the request through `request`) the answer is `ended` without waiting.
 */
async function asking<T>(
  calls: readonly RunningCall[],
  request: AbortSignal | undefined,
  ended: T,
  ask: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const callsOver = allAborted(calls.map((call) => call.signal))
  const signal = request === undefined ? callsOver : AbortSignal.any([request, callsOver])
  if (signal.aborted) return ended
  const over = new Promise<T>((resolve) =>
    signal.addEventListener('abort', () => resolve(ended), { once: true }),
  )
  for (const call of calls) call.timer?.hold()
  try {
    return await Promise.race([ask(signal), over])
  } finally {
    for (const call of calls) call.timer?.release()
  }
}

/** Answers one question for `calls` through `asker`; failures to ask become declines. */
async function answer(
  calls: readonly RunningCall[],
  asker: CallAsker,
  question: Question,
  request: AbortSignal | undefined,
): Promise<ElicitResult | SamplingAnswer> {
  try {
    switch (question.kind) {
      case 'form':
        return await asking(calls, request, withdrawn(), (s) => asker.form(question.question, s))
      case 'url':
        return await asking(calls, request, withdrawn(), (s) => asker.url(question.question, s))
      case 'sampling':
        return await asking(calls, request, { refused: CALL_ENDED }, (s) =>
          asker.sampling(question.params, s),
        )
    }
  } catch (error) {
    const why = `the question could not be asked: ${(error as Error).message}`
    return question.kind === 'sampling' ? { refused: why } : declined(why)
  }
}

/** Why a sampling request got no reply, or undefined for any other outcome. */
function refusal(outcome: ElicitResult | SamplingAnswer): string | undefined {
  if ('action' in outcome || !('refused' in outcome)) return undefined
  return (outcome as { refused: string }).refused
}

export interface RelayOptions {
  server: string
  /** The roots this server is told of, or undefined when they are not declared to it. */
  roots: () => Root[] | undefined
  onDecline: (tool: string | null, reason: string) => void
}

/** The calls running on one connection, for attributing the questions its server asks. */
export class ElicitationRelay {
  private readonly running = new Set<RunningCall>()

  constructor(private readonly options: RelayOptions) {}

  /** Answers the server's requests on `client`; call before `connect()`, which they may follow. */
  register(client: Client): void {
    client.setRequestHandler('elicitation/create', (request, ctx) =>
      this.legacyElicitation(request.params, ctx.mcpReq.signal),
    )
    client.setRequestHandler('sampling/createMessage', async (request, ctx) => {
      const outcome = await this.legacy(
        { kind: 'sampling', params: request.params },
        ctx.mcpReq.signal,
      )
      const refused = refusal(outcome)
      if (refused !== undefined) throw new ProtocolError(SAMPLING_REFUSED, refused)
      return (outcome as { result: CreateMessageResult }).result
    })
    if (this.options.roots() !== undefined) {
      client.setRequestHandler('roots/list', () => ({ roots: this.options.roots() ?? [] }))
    }
  }

  /** A call starts on the connection; `end()` it when it settles, which withdraws its questions. */
  begin(tool: string, asker: CallAsker | undefined, timer?: CallTimer): RunningCall {
    const call = new RunningCall(tool, asker, timer)
    this.running.add(call)
    return call
  }

  end(call: RunningCall): void {
    this.running.delete(call)
    call.end()
  }

  /** A legacy `elicitation/create`, for the call (or calls) that may have asked it. */
  async legacyElicitation(params: ElicitRequestParams, signal: AbortSignal): Promise<ElicitResult> {
    const question = elicitationOf(params)
    if (typeof question === 'string') return declined(question)
    return (await this.legacy(question, signal)) as ElicitResult
  }

  /**
   * Nothing on a legacy wire says which call asked: the question goes to the one call running on
   * the connection, to all of them together when several run, and is declined when none runs.
   */
  private async legacy(
    question: Question,
    signal: AbortSignal,
  ): Promise<ElicitResult | SamplingAnswer> {
    const calls = [...this.running]
    const [first, ...rest] = calls
    const asker =
      first === undefined || rest.length === 0
        ? first?.asker
        : first.asker?.together?.(
            rest.flatMap((call) => (call.asker === undefined ? [] : [call.asker])),
          )
    if (first === undefined || asker === undefined) {
      const reason =
        first === undefined
          ? 'no call of this server is running in Ferry, so nobody could be asked'
          : rest.length === 0
            ? 'nobody can answer questions of this call'
            : `${calls.length} calls of this server are running in Ferry and the request does not say which one asked, so nobody was asked`
      this.options.onDecline(null, reason)
      return question.kind === 'sampling' ? { refused: reason } : declined(reason)
    }
    const outcome = await answer(calls, asker, question, because(signal, 'the server withdrew it'))
    this.noteDecline(rest.length === 0 ? first.tool : null, outcome)
    return outcome
  }

  /**
   * Answers every embedded request of one input-required round of `call` (2026-07-28), in
   * parallel; `signal` is the call's, which withdraws the questions when it is cancelled.
   */
  async round(
    call: RunningCall,
    requests: InputRequests | undefined,
    signal: AbortSignal | undefined,
  ): Promise<InputResponses> {
    const entries = Object.entries(requests ?? {})
    const answers = await Promise.all(
      entries.map(
        async ([key, request]) => [key, await this.embedded(call, request, signal)] as const,
      ),
    )
    return Object.fromEntries(answers) as InputResponses
  }

  private async embedded(
    call: RunningCall,
    request: InputRequests[string],
    signal: AbortSignal | undefined,
  ): Promise<InputResponses[string]> {
    if (request.method === 'roots/list') return { roots: this.options.roots() ?? [] }
    const question: Question | string =
      request.method === 'elicitation/create'
        ? elicitationOf(request.params as ElicitRequestParams)
        : request.method === 'sampling/createMessage'
          ? { kind: 'sampling', params: request.params as CreateMessageRequestParams }
          : `Ferry does not answer ${(request as { method: string }).method} requests`
    if (typeof question === 'string') return declined(question)
    const outcome =
      call.asker === undefined
        ? question.kind === 'sampling'
          ? { refused: 'nobody can answer questions of this call' }
          : declined('nobody can answer questions of this call')
        : await answer([call], call.asker, question, signal)
    this.noteDecline(call.tool, outcome)
    const refused = refusal(outcome)
    if (refused === undefined) {
      return 'action' in outcome ? outcome : (outcome as { result: CreateMessageResult }).result
    }
    // A 2026-07-28 round has no way to refuse a sampling request: the call ends here instead.
    signal?.throwIfAborted()
    throw new FerryError(
      ErrorCode.UpstreamError,
      `server "${this.options.server}" asked for a model reply during ${call.tool}, which was not given (${refused}); a 2026-07-28 server cannot be told so, so Ferry stopped the call`,
    )
  }

  /**
   * One call, with the input-required rounds of a 2026-07-28 server driven here rather than by
   * the SDK, so each round's questions are known to belong to this call.
   */
  async callTool(
    client: Client,
    call: RunningCall,
    tool: string,
    args: Record<string, unknown>,
    options: Parameters<Client['callTool']>[1],
  ): Promise<CallToolResult> {
    let result = await client.callTool({ name: tool, arguments: args }, options)
    for (let round = 1; isInputRequiredResult(result); round++) {
      if (round > MAX_INPUT_ROUNDS) {
        throw new FerryError(
          ErrorCode.UpstreamError,
          `server "${this.options.server}" asked for input more than ${MAX_INPUT_ROUNDS} times during one call to ${tool}; Ferry stopped the call`,
        )
      }
      const inputResponses = await this.round(call, result.inputRequests, options?.signal)
      // Cancelled while its questions were open: the retry is not sent.
      options?.signal?.throwIfAborted()
      const { requestState } = result
      // The SDK's params type does not list the retry's fields; it sends them as given.
      const retry = {
        name: tool,
        arguments: args,
        inputResponses,
        ...(requestState === undefined ? {} : { requestState }),
      } as Parameters<Client['callTool']>[0]
      result = await client.callTool(retry, options)
    }
    return result as CallToolResult
  }

  private noteDecline(tool: string | null, outcome: ElicitResult | SamplingAnswer): void {
    const refused = refusal(outcome)
    if (refused !== undefined) return this.options.onDecline(tool, refused)
    if (!('action' in outcome)) return
    const reason = outcome._meta?.[DECLINE_REASON_META_KEY]
    if (outcome.action === 'decline' && typeof reason === 'string')
      this.options.onDecline(tool, reason)
  }
}
