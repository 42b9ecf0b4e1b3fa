// Requests an upstream server makes of its client, routed to the call that asked: a 2026-07-28
// server's input-required rounds belong to the call they answer, and a legacy server's
// `elicitation/create` or `sampling/createMessage` to the one call running on its connection, or
// to all of them together when several run. `roots/list` is answered from the server's settings,
// or, with `"roots": "client"`, with the roots of the gateway client whose call asks.
// A question nobody can be asked is declined with the reason the server receives. A call the
// server refuses until a page is opened (-32042) asks the person to open it and is sent again
// once the server says the page's work is done (`notifications/elicitation/complete`), which also
// closes a URL question still open.

import { ProtocolError, isInputRequiredResult, type Client } from '@modelcontextprotocol/client'
import type {
  CallToolResult,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  GetPromptResult,
  InputRequests,
  InputResponses,
  Root,
} from '@modelcontextprotocol/client'
import { toJsonValue, type JsonValue } from '@modelcontextprotocol/ext-tasks/core'
import {
  bindTaskReceiver,
  type TaskReceiverBinding,
} from '@modelcontextprotocol/ext-tasks/receiver'
import { ErrorCode, FerryError, errorMessage } from '../errors.js'
import { PageCompletions, pagesFirst } from './page-completions.js'
import {
  DECLINE_REASON_META_KEY,
  SAMPLING_REFUSED,
  RunningCall,
  answer,
  because,
  declined,
  elicitationOf,
  refusal,
  type CallAsker,
  type Question,
  type SamplingAnswer,
  type UrlQuestion,
} from './call-asker.js'
import type { CallTimer } from './call-timer.js'

/** How often a server is asked to poll a question it sent as a task. */
const TASK_POLL_MS = 1_000

/** A result as the task receiver keeps it: plain JSON, through the receiver's own conversion. */
function toJson(result: ElicitResult | CreateMessageResult): Record<string, JsonValue> {
  return toJsonValue(result) as Record<string, JsonValue>
}

/** Input-required rounds one call may take before Ferry stops it (the SDK's own default). */
export const MAX_INPUT_ROUNDS = 10

export interface RelayOptions {
  server: string
  /** The roots this server is told of, or undefined when they are not declared to it. */
  roots: () => Root[] | undefined
  /** `"roots": "client"`: the server gets the roots of the gateway client whose call asks. */
  rootsFromCaller: () => boolean
  onDecline: (tool: string | null, reason: string) => void
}

/** The calls running on one connection, for attributing the questions its server asks. */
export class ElicitationRelay {
  private readonly running = new Set<RunningCall>()
  private readonly pages = new PageCompletions()
  /** Questions the server sends as tasks, on the current client. */
  private tasks: TaskReceiverBinding | undefined

  constructor(private readonly options: RelayOptions) {}

  /**
   * Answers the server's requests on `client`, also those it sends as 2025-11-25 tasks (the
   * question is the task's work; the server polls for its answer); call before `connect()`, which
   * they may follow.
   */
  register(client: Client): void {
    client.setRequestHandler('elicitation/create', (request, ctx) =>
      this.legacyElicitation(request.params, ctx.mcpReq.signal),
    )
    client.setNotificationHandler('notifications/elicitation/complete', (notification) => {
      this.pages.complete(notification.params.elicitationId)
    })
    client.setRequestHandler('sampling/createMessage', (request, ctx) =>
      this.legacySampling(request.params, ctx.mcpReq.signal),
    )
    if (this.options.roots() !== undefined) {
      client.setRequestHandler('roots/list', async (_request, ctx) => ({
        roots: await this.legacyRoots(ctx.mcpReq.signal),
      }))
    }
    // A connection replaced by a new one stops answering for the old client's tasks.
    this.tasks?.close()
    this.tasks = bindTaskReceiver(client, {
      methods: { 'sampling/createMessage': true, 'elicitation/create': true },
      pollIntervalMs: TASK_POLL_MS,
      sampling: async (request, { signal }) =>
        toJson(
          await this.legacySampling(
            request.params as unknown as CreateMessageRequestParams,
            signal,
          ),
        ),
      elicitation: async (request, { signal }) =>
        toJson(
          await this.legacyElicitation(request.params as unknown as ElicitRequestParams, signal),
        ),
    })
    client.registerCapabilities({ tasks: { ...this.tasks.capabilities } })
  }

  /**
   * The roots a server gets during `call`: those of its settings, or, with `"roots": "client"`,
   * the caller's when it gives them (a gateway client that declared roots), else none.
   */
  private async rootsFor(call: RunningCall, signal: AbortSignal | undefined): Promise<Root[]> {
    if (!this.options.rootsFromCaller()) return this.options.roots() ?? []
    const give = call.asker?.roots
    if (give === undefined) return []
    try {
      return await give(signal ?? call.signal)
    } catch (error) {
      this.options.onDecline(
        call.tool,
        `the caller's roots could not be had: ${errorMessage(error)}`,
      )
      return []
    }
  }

  /** A legacy `roots/list`: the one running call's roots (see `rootsFor`), none when unclear. */
  private async legacyRoots(signal: AbortSignal): Promise<Root[]> {
    if (!this.options.rootsFromCaller()) return this.options.roots() ?? []
    const [only, ...more] = this.running
    return only === undefined || more.length > 0 ? [] : this.rootsFor(only, signal)
  }

  /** A legacy `sampling/createMessage`, for the call (or calls) that may have asked it. */
  private async legacySampling(
    params: CreateMessageRequestParams,
    signal: AbortSignal,
  ): Promise<CreateMessageResult> {
    const outcome = await this.legacy(
      { kind: 'sampling', params },
      because(signal, 'the server withdrew it'),
    )
    const refused = refusal(outcome)
    if (refused !== undefined) throw new ProtocolError(SAMPLING_REFUSED, refused)
    return (outcome as { result: CreateMessageResult }).result
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
    const withdrawn = because(signal, 'the server withdrew it')
    const id = question.kind === 'url' ? question.question.elicitationId : undefined
    if (id === undefined) return (await this.legacy(question, withdrawn)) as ElicitResult
    // A page the server says is done needs no answer any more.
    const page = this.pages.watch(id)
    try {
      return (await this.legacy(
        question,
        AbortSignal.any([withdrawn, page.signal]),
      )) as ElicitResult
    } finally {
      page.stop()
    }
  }

  /**
   * Nothing on a legacy wire says which call asked: the question goes to the one call running on
   * the connection, to all of them together when several run, and is declined when none runs. A
   * call whose own question is still open waits for its answer, so it is not the one asking
   * (unless every running call waits so); a call parked until its client answers holds nobody
   * else's questions.
   */
  private async legacy(
    question: Question,
    signal: AbortSignal,
  ): Promise<ElicitResult | SamplingAnswer> {
    const running = [...this.running]
    const free = running.filter((call) => call.openQuestions === 0)
    const calls = free.length > 0 ? free : running
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
    const outcome = await answer(calls, asker, question, signal)
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
        async ([key, request]) => [key, await this.embedded(call, key, request, signal)] as const,
      ),
    )
    return Object.fromEntries(answers) as InputResponses
  }

  private async embedded(
    call: RunningCall,
    key: string,
    request: InputRequests[string],
    signal: AbortSignal | undefined,
  ): Promise<InputResponses[string]> {
    if (request.method === 'roots/list') return { roots: await this.rootsFor(call, signal) }
    const asked: Question | string =
      request.method === 'elicitation/create'
        ? elicitationOf(request.params as ElicitRequestParams)
        : request.method === 'sampling/createMessage'
          ? { kind: 'sampling', params: request.params as CreateMessageRequestParams }
          : `Ferry does not answer ${(request as { method: string }).method} requests`
    // The server's key goes with the question, so a round that forwards it can keep it.
    const question: Question | string =
      typeof asked === 'string'
        ? asked
        : asked.kind === 'form'
          ? { kind: 'form', question: { ...asked.question, key } }
          : asked.kind === 'sampling'
            ? { ...asked, key }
            : asked
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
    const first = await this.firstCall(client, call, tool, args, options)
    const result = await this.rounds(call, `call to ${tool}`, first, options?.signal, (answers) =>
      // The SDK's params type does not list the retry's fields; it sends them as given.
      client.callTool(
        { name: tool, arguments: args, ...answers } as Parameters<Client['callTool']>[0],
        options,
      ),
    )
    return result as CallToolResult
  }

  /** One prompt get, its input-required rounds driven as a call's are. */
  async getPrompt(
    client: Client,
    call: RunningCall,
    params: { name: string; arguments?: Record<string, string> },
    options: Parameters<Client['getPrompt']>[1],
  ): Promise<GetPromptResult> {
    const asking = { ...options, allowInputRequired: true } as Parameters<Client['getPrompt']>[1]
    const first: unknown = await client.getPrompt(params, asking)
    const result = await this.rounds(
      call,
      `get of prompt ${params.name}`,
      first,
      options?.signal,
      (answers) => client.getPrompt({ ...params, ...answers } as typeof params, asking),
    )
    return result as GetPromptResult
  }

  /**
   * Answers a 2026-07-28 server's input-required rounds of one request (`what`), each with the
   * request sent again with the answers and the round's state, until it completes.
   */
  private async rounds(
    call: RunningCall,
    what: string,
    first: unknown,
    signal: AbortSignal | undefined,
    again: (answers: { inputResponses: InputResponses; requestState?: string }) => Promise<unknown>,
  ): Promise<unknown> {
    let result = first
    for (let round = 1; isInputRequiredResult(result); round++) {
      if (round > MAX_INPUT_ROUNDS) {
        throw new FerryError(
          ErrorCode.UpstreamError,
          `server "${this.options.server}" asked for input more than ${MAX_INPUT_ROUNDS} times during one ${what}; Ferry stopped it`,
        )
      }
      const inputResponses = await this.round(call, result.inputRequests, signal)
      // Cancelled while its questions were open: the retry is not sent.
      signal?.throwIfAborted()
      const { requestState } = result
      result = await again({
        inputResponses,
        ...(requestState === undefined ? {} : { requestState }),
      })
    }
    return result
  }

  /**
   * Sends the call; a server that refuses it until the person opens a page (-32042) gets each page
   * asked as a URL question, and the call again, once, when it says the pages' work is done.
   */
  private async firstCall(
    client: Client,
    call: RunningCall,
    tool: string,
    args: Record<string, unknown>,
    options: Parameters<Client['callTool']>[1],
  ): Promise<Awaited<ReturnType<Client['callTool']>>> {
    try {
      return await client.callTool({ name: tool, arguments: args }, options)
    } catch (error) {
      const pages = pagesFirst(error)
      if (pages === undefined) throw error
      for (const page of pages) await this.openPage(call, tool, page, options?.signal)
      return await client.callTool({ name: tool, arguments: args }, options)
    }
  }

  /** Asks the person to open `page`, then waits until the server says its work is done. */
  private async openPage(
    call: RunningCall,
    tool: string,
    page: UrlQuestion & { elicitationId: string },
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const done = this.pages.watch(page.elicitationId)
    try {
      const asked = signal === undefined ? done.signal : AbortSignal.any([signal, done.signal])
      const outcome: ElicitResult | SamplingAnswer =
        call.asker === undefined
          ? declined('nobody can answer questions of this call')
          : await answer([call], call.asker, { kind: 'url', question: page }, asked)
      if (done.signal.aborted) return
      signal?.throwIfAborted()
      this.noteDecline(call.tool, outcome)
      const result = outcome as ElicitResult
      if (result.action !== 'accept') {
        const reason = result._meta?.[DECLINE_REASON_META_KEY]
        throw new FerryError(
          ErrorCode.UpstreamError,
          `server "${this.options.server}" needs a page opened before ${tool} can run (${page.url}), and it was not (${typeof reason === 'string' ? reason : `${result.action} in Ferry`})`,
        )
      }
      // Opened: the server says when the page's work is done. The call's own timeout runs meanwhile.
      await new Promise<void>((resolve, reject) => {
        if (done.signal.aborted) return resolve()
        done.signal.addEventListener('abort', () => resolve(), { once: true })
        signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true })
      })
    } finally {
      done.stop()
    }
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
