// A 2026-07-28 gateway call that asks its client for input: the Ferry call keeps running between
// the client's HTTP requests, and each `tools/call` round either returns the call's result or the
// questions waiting for the client (an input-required result); the client's retry brings the
// answers back to the same call. Once the call became a task, no round waits for it: its questions
// wait for the client's `tasks/get` and its answers come with `tasks/update`. A client that does
// not come back in time cancels the call.

import type {
  CallToolResult,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitResult,
  InputRequest,
  InputRequests,
  Root,
  ServerContext,
} from '@modelcontextprotocol/server'
import { inputRequired } from '@modelcontextprotocol/server'
import { CALL_ENDED, type ElicitQuestion, type SamplingAnswer } from '../mcp/call-asker.js'

/**
 * How long a call waits for its client to come back with answers (the state's lifetime too): long
 * enough for a person to answer in the client, short enough that an abandoned call does not keep
 * its server working for it.
 */
export const ROUND_WAIT_MS = 120_000

/** What a round hands back to the client: the call's result, or questions to answer first. */
export type RoundOutcome<R = CallToolResult> =
  | { kind: 'result'; result: R }
  | { kind: 'questions'; inputRequests: InputRequests }
  /** The call became a task: the round's request was answered with it. */
  | { kind: 'detached' }

interface Question {
  /** The request as the client gets it in a round. */
  request: InputRequest
  /** Its answer as the client gave it, or undefined once it was withdrawn. */
  resolve: (answer: unknown) => void
}

/** The synthetic progress token the call's own context carries; rewritten for each round. */
const ROUND_TOKEN = 'ferry-round'

export class ParkedCall<R = CallToolResult> {
  private readonly questions = new Map<string, Question>()
  private asked = 0
  private rounds = 0
  private outcome: { result: R } | { error: unknown } | undefined
  private current: ServerContext | undefined
  /** Rounds waiting for the result or a question (a client may retry twice at once). */
  private readonly waiting = new Set<() => void>()
  private idle: NodeJS.Timeout | undefined
  /** The call became a task: no round waits for it any more. */
  private tasked = false
  /** Answers the client sent before it was asked, by the server's key (see `prefill`). */
  private readonly early = new Map<string, unknown>()
  /** Aborts the call: its client gave up or did not come back. */
  private readonly controller = new AbortController()

  constructor(
    readonly callId: string,
    /** The tool as the client named it; a retry must name the same. */
    readonly tool: string,
    /** The gateway client whose call it is; nobody else's retry continues it. */
    readonly client: string,
    private readonly onGone: () => void,
  ) {}

  /** Whether the call became a task. */
  get isTask(): boolean {
    return this.tasked
  }

  /** Counts the rounds that put questions to the client. */
  nextRound(): number {
    return ++this.rounds
  }

  /** The context the call runs with: progress goes to whichever round is current. */
  callContext(first: ServerContext): ServerContext {
    const notify = async (notification: Parameters<ServerContext['mcpReq']['notify']>[0]) => {
      const round = this.current
      const token = round?.mcpReq._meta?.progressToken
      if (round === undefined || token === undefined) return
      const params = { ...notification.params, progressToken: token }
      await round.mcpReq.notify({ ...notification, params } as typeof notification)
    }
    return {
      ...first,
      mcpReq: {
        ...first.mcpReq,
        _meta: { ...first.mcpReq._meta, progressToken: ROUND_TOKEN },
        signal: this.controller.signal,
        notify,
      },
    }
  }

  /** Runs the call; its settling ends any round waiting for it. */
  start(run: () => Promise<R>): void {
    run().then(
      (result) => this.settle({ result }),
      (error: unknown) => this.settle({ error }),
    )
  }

  /** Asks the client a form question; resolves with its answer, or `cancel` once `signal` aborts. */
  async ask(question: ElicitQuestion, signal: AbortSignal): Promise<ElicitResult> {
    const { key, ...form } = question
    const answer = await this.open(inputRequired.elicit({ mode: 'form', ...form }), signal, key)
    return answer === undefined ? { action: 'cancel' } : (answer as ElicitResult)
  }

  /** Asks the client for a model reply; refused once `signal` aborts. */
  async askSampling(
    params: CreateMessageRequestParams,
    signal: AbortSignal,
    key?: string,
  ): Promise<SamplingAnswer> {
    const answer = await this.open(inputRequired.createMessage(params), signal, key)
    return answer === undefined
      ? { refused: CALL_ENDED }
      : { result: answer as CreateMessageResult }
  }

  /** Asks the client for its roots; none once `signal` aborts or when it gives none. */
  async askRoots(signal: AbortSignal): Promise<Root[]> {
    const answer = (await this.open(inputRequired.listRoots(), signal)) as
      | { roots?: Root[] }
      | undefined
    return answer?.roots ?? []
  }

  /**
   * Answers the client sent with its first request, before anything was asked: each answers the
   * question the server asks under that key, once, without a round. Keys no question uses are
   * never passed on.
   */
  prefill(responses: Record<string, unknown> | undefined): void {
    for (const [key, response] of Object.entries(responses ?? {})) this.early.set(key, response)
  }

  /**
   * Puts `request` to the client in the next round, under the server's own key when it has one
   * that is free; undefined once `signal` aborts.
   */
  private open(request: InputRequest, signal: AbortSignal, own?: string): Promise<unknown> {
    if (own !== undefined && this.early.has(own)) {
      const answer = this.early.get(own)
      this.early.delete(own)
      return Promise.resolve(answer)
    }
    return new Promise((resolve) => {
      let key = own !== undefined && !this.questions.has(own) ? own : `q${this.asked++}`
      while (key !== own && this.questions.has(key)) key = `q${this.asked++}`
      this.questions.set(key, { request, resolve })
      // A task's client is not waiting in a round: it has its bound to come and read the question.
      if (this.tasked) this.awaitClient()
      signal.addEventListener(
        'abort',
        () => {
          this.questions.delete(key)
          resolve(undefined)
        },
        { once: true },
      )
      this.wake()
    })
  }

  /**
   * The client's answers, of a retry or a task's `tasks/update`; answers to questions no longer
   * open are ignored.
   */
  answer(responses: Record<string, unknown> | undefined): void {
    for (const [key, response] of Object.entries(responses ?? {})) {
      const open = this.questions.get(key)
      if (open === undefined) continue
      this.questions.delete(key)
      open.resolve(response)
    }
    if (this.tasked && this.questions.size === 0) clearTimeout(this.idle)
  }

  /**
   * The call became a task: a round waiting for it ends, and from now on its questions wait for
   * `pending` (the task's `tasks/get`) instead of a round.
   */
  detach(): void {
    this.tasked = true
    clearTimeout(this.idle)
    if (this.outcome !== undefined) this.onGone()
    else if (this.questions.size > 0) this.awaitClient()
    this.wake()
  }

  /**
   * A task's open questions, as its `tasks/get` shows them; undefined when there are none. The
   * client that reads them has its bound again to answer.
   */
  pending(): InputRequests | undefined {
    if (this.questions.size === 0) return undefined
    this.awaitClient()
    const inputRequests: InputRequests = {}
    for (const [key, { request }] of this.questions) inputRequests[key] = request
    return inputRequests
  }

  /** Serves one `tools/call` request of the client: waits for the result or for questions. */
  async round(ctx: ServerContext): Promise<RoundOutcome<R>> {
    clearTimeout(this.idle)
    this.current = ctx
    const gone = () => this.controller.abort()
    ctx.mcpReq.signal.addEventListener('abort', gone, { once: true })
    try {
      for (;;) {
        if (this.tasked) return { kind: 'detached' }
        if (this.outcome !== undefined) {
          this.onGone()
          if ('error' in this.outcome) throw this.outcome.error
          return { kind: 'result', result: this.outcome.result }
        }
        const inputRequests = this.pending()
        if (inputRequests !== undefined) return { kind: 'questions', inputRequests }
        await new Promise<void>((resolve) => this.waiting.add(resolve))
      }
    } finally {
      this.current = undefined
      ctx.mcpReq.signal.removeEventListener('abort', gone)
    }
  }

  /** The daemon stops, or the client never came back: the call is cancelled. */
  abandoned(): void {
    clearTimeout(this.idle)
    this.controller.abort()
    this.onGone()
  }

  /** The client has `ROUND_WAIT_MS` from now to come back with answers, or the call ends. */
  private awaitClient(): void {
    clearTimeout(this.idle)
    this.idle = setTimeout(() => this.abandoned(), ROUND_WAIT_MS)
    this.idle.unref()
  }

  private settle(outcome: { result: R } | { error: unknown }): void {
    this.outcome = outcome
    // A task's outcome is in the transcript, where `tasks/get` reads it.
    if (this.tasked) {
      clearTimeout(this.idle)
      this.onGone()
    } else if (this.current === undefined) {
      // A call that ends between rounds keeps its result until the client comes back for it.
      clearTimeout(this.idle)
      this.idle = setTimeout(() => this.onGone(), ROUND_WAIT_MS)
      this.idle.unref()
    }
    this.wake()
  }

  private wake(): void {
    for (const resume of this.waiting) resume()
    this.waiting.clear()
  }
}
