// Questions an upstream server asks through elicitation, routed to the call that asked: a
// 2026-07-28 server's input-required rounds belong to the call they answer, and a legacy
// server's `elicitation/create` to the only call running on its connection. A question nobody
// can be asked is declined, with the reason in the result's `_meta`.

import { isInputRequiredResult, type Client } from '@modelcontextprotocol/client'
import type {
  CallToolResult,
  ElicitRequestFormParams,
  ElicitRequestParams,
  ElicitResult,
  InputRequests,
  InputResponses,
} from '@modelcontextprotocol/client'
import { ErrorCode, FerryError } from '../errors.js'

/** Where a declined elicitation's result says why. */
export const DECLINE_REASON_META_KEY = 'ferry/reason'

/** Input-required rounds one call may take before Ferry stops it (the SDK's own default). */
export const MAX_INPUT_ROUNDS = 10

/** A form elicitation as the asking server sent it, without its request `_meta`. */
export interface ElicitQuestion {
  message: string
  requestedSchema: ElicitRequestFormParams['requestedSchema']
}

/**
 * Asks one question on behalf of a call; resolves with the answer to give the server. `signal`
 * aborts when the answer is no longer wanted (the call ended, or the server withdrew it).
 */
export type ElicitationAsker = (
  question: ElicitQuestion,
  signal: AbortSignal,
) => Promise<ElicitResult>

export function declined(reason: string): ElicitResult {
  return { action: 'decline', _meta: { [DECLINE_REASON_META_KEY]: reason } }
}

const NOT_THROUGH_GATEWAY =
  "the call was made in Ferry's WebShell or a terminal, which do not answer elicitations"

/** The question's form, or why Ferry does not forward it. */
function formOf(params: ElicitRequestParams | undefined): ElicitQuestion | string {
  if (params === undefined || typeof params !== 'object') return 'the request had no parameters'
  if (params.mode === 'url') return 'Ferry forwards only form elicitations, not URL ones'
  const form = params as ElicitRequestFormParams
  return { message: form.message, requestedSchema: form.requestedSchema }
}

/** One call running on the connection, and who may answer its questions. */
export class RunningCall {
  private readonly controller = new AbortController()

  constructor(
    readonly tool: string,
    private readonly asker: ElicitationAsker | undefined,
  ) {}

  /** Asks through the call's asker; the answer is `cancel` once the call or the request ends. */
  async ask(params: ElicitRequestParams | undefined, signal?: AbortSignal): Promise<ElicitResult> {
    const question = formOf(params)
    if (typeof question === 'string') return declined(question)
    if (this.asker === undefined) return declined(NOT_THROUGH_GATEWAY)
    const combined =
      signal === undefined
        ? this.controller.signal
        : AbortSignal.any([signal, this.controller.signal])
    if (combined.aborted) return { action: 'cancel' }
    const ended = new Promise<ElicitResult>((resolve) =>
      combined.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true }),
    )
    try {
      return await Promise.race([this.asker(question, combined), ended])
    } catch (error) {
      if (combined.aborted) return { action: 'cancel' }
      return declined(`the question could not be asked: ${(error as Error).message}`)
    }
  }

  /** Answers every embedded request of one input-required round, in parallel. */
  async answerRound(
    requests: InputRequests | undefined,
    signal: AbortSignal | undefined,
  ): Promise<InputResponses> {
    const entries = Object.entries(requests ?? {})
    const answers = await Promise.all(
      entries.map(async ([key, request]) => {
        if (request.method !== 'elicitation/create') {
          return [key, declined(`Ferry does not answer ${request.method} requests`)] as const
        }
        return [key, await this.ask(request.params as ElicitRequestParams, signal)] as const
      }),
    )
    return Object.fromEntries(answers) as InputResponses
  }

  end(): void {
    this.controller.abort()
  }
}

/** The calls running on one connection, for attributing the questions its server asks. */
export class ElicitationRelay {
  private readonly running = new Set<RunningCall>()

  constructor(
    private readonly server: string,
    private readonly onDecline: (tool: string | null, reason: string) => void,
  ) {}

  /** A call starts on the connection; `end()` it when it settles, which withdraws its questions. */
  begin(tool: string, asker: ElicitationAsker | undefined): RunningCall {
    const call = new RunningCall(tool, asker)
    this.running.add(call)
    return call
  }

  end(call: RunningCall): void {
    this.running.delete(call)
    call.end()
  }

  /**
   * A legacy `elicitation/create`: nothing on the wire says which call asked, so it goes to the
   * one call running on the connection, and is declined when none or several run.
   */
  async legacyRequest(params: ElicitRequestParams, signal: AbortSignal): Promise<ElicitResult> {
    const calls = [...this.running]
    const only = calls.length === 1 ? calls[0] : undefined
    if (only === undefined) {
      const reason =
        calls.length === 0
          ? 'no call of this server is running in Ferry, so nobody could be asked'
          : `${calls.length} calls of this server are running in Ferry and the request does not say which one asked, so nobody was asked`
      this.onDecline(null, reason)
      return declined(reason)
    }
    const answer = await only.ask(params, signal)
    this.noteDecline(only.tool, answer)
    return answer
  }

  /**
   * Answers one input-required round of `call` (2026-07-28), whose rounds are its own; `signal`
   * is the call's, which withdraws the questions when the call is cancelled between requests.
   */
  async round(
    call: RunningCall,
    requests: InputRequests | undefined,
    signal: AbortSignal | undefined,
  ): Promise<InputResponses> {
    const answers = await call.answerRound(requests, signal)
    for (const answer of Object.values(answers)) this.noteDecline(call.tool, answer as ElicitResult)
    return answers
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
          `server "${this.server}" asked for input more than ${MAX_INPUT_ROUNDS} times during one call to ${tool}; Ferry stopped the call`,
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

  private noteDecline(tool: string, answer: ElicitResult): void {
    const reason = answer._meta?.[DECLINE_REASON_META_KEY]
    if (answer.action === 'decline' && typeof reason === 'string') this.onDecline(tool, reason)
  }
}
