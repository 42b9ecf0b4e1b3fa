// What a server may ask during a call and who answers it: the questions (form and URL
// elicitation, sampling), the asker a call carries, the calls a question belongs to, and asking
// with those calls' clocks held until the answer comes or the calls end.

import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitRequestParams,
  ElicitRequestURLParams,
  ElicitResult,
  Root,
} from '@modelcontextprotocol/client'
import type { CallTimer } from './call-timer.js'

/** Where a declined (or withdrawn) elicitation's result says why. */
export const DECLINE_REASON_META_KEY = 'ferry/reason'

/** The JSON-RPC error code a refused sampling request gets (MCP's "user rejected"). */
export const SAMPLING_REFUSED = -1

/** A form elicitation as the asking server sent it, without its request `_meta`. */
export interface ElicitQuestion {
  message: string
  requestedSchema: ElicitRequestFormParams['requestedSchema']
  /** 2026-07-28: the server's own key for it in its round, kept where it is forwarded in a round. */
  key?: string | undefined
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

/**
 * Answers one sampling request on behalf of a call (a gateway client that can); `key` as for
 * `ElicitQuestion`.
 */
export type SamplingAsker = (
  params: CreateMessageRequestParams,
  signal: AbortSignal,
  key?: string,
) => Promise<SamplingAnswer>

/** The caller's own roots (a gateway client that declared roots), for `"roots": "client"`. */
export type RootsAsker = (signal: AbortSignal) => Promise<Root[]>

/** Who answers a call's questions, of every kind a server may ask. */
export interface CallAsker {
  form: ElicitationAsker
  url(question: UrlQuestion, signal: AbortSignal): Promise<ElicitResult>
  sampling: SamplingAsker
  /** The caller's roots, when it can give them; a server with `"roots": "client"` gets these. */
  roots?: RootsAsker | undefined
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

function withdrawn(reason = CALL_ENDED): ElicitResult {
  return { action: 'cancel', _meta: { [DECLINE_REASON_META_KEY]: reason } }
}

export type Question =
  | { kind: 'form'; question: ElicitQuestion }
  | { kind: 'url'; question: UrlQuestion }
  | { kind: 'sampling'; params: CreateMessageRequestParams; key?: string | undefined }

/** The question in an elicitation request, or why Ferry cannot ask it. */
export function elicitationOf(params: ElicitRequestParams | undefined): Question | string {
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
  /** Made when a question first needs it: most calls ask nothing. */
  private controller: AbortController | undefined
  private ended = false
  /** Its questions still open: while one is, the call waits for the answer. */
  openQuestions = 0

  constructor(
    readonly tool: string,
    readonly asker: CallAsker | undefined,
    /** The call's own timeout, held while its questions are open. */
    readonly timer?: CallTimer,
  ) {}

  /** Aborts once the call has ended. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController()
      if (this.ended) this.controller.abort(CALL_ENDED)
    }
    return this.controller.signal
  }

  end(): void {
    this.ended = true
    // A reason given: an abort without one builds a DOMException and its stack.
    this.controller?.abort(CALL_ENDED)
  }
}

/**
 * Aborts once every one of `signals` has (a question several calls share ends with the last);
 * `dispose` stops listening, so a call that asks many questions keeps no listener per question.
 */
function allAborted(signals: readonly AbortSignal[]): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController()
  const check = () => {
    if (signals.every((signal) => signal.aborted)) controller.abort(CALL_ENDED)
  }
  for (const signal of signals) signal.addEventListener('abort', check, { once: true })
  check()
  return {
    signal: controller.signal,
    dispose: () => {
      for (const signal of signals) signal.removeEventListener('abort', check)
    },
  }
}

/** Aborts with `reason` (which the question's record gives) once `signal` does. */
export function because(signal: AbortSignal, reason: string): AbortSignal {
  const controller = new AbortController()
  if (signal.aborted) controller.abort(reason)
  else signal.addEventListener('abort', () => controller.abort(reason), { once: true })
  return controller.signal
}

/**
 * Asks through `asker` with the calls' clocks held; once the calls end (or the server withdraws
 * the request through `request`) the answer is `ended`, with the reason, without waiting.
 */
async function asking<T>(
  calls: readonly RunningCall[],
  request: AbortSignal | undefined,
  ended: (reason: string) => T,
  ask: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const callsOver = allAborted(calls.map((call) => call.signal))
  const signal =
    request === undefined ? callsOver.signal : AbortSignal.any([request, callsOver.signal])
  const why = () => (typeof signal.reason === 'string' ? signal.reason : CALL_ENDED)
  if (signal.aborted) {
    callsOver.dispose()
    return ended(why())
  }
  const over = new Promise<T>((resolve) =>
    signal.addEventListener('abort', () => resolve(ended(why())), { once: true }),
  )
  for (const call of calls) {
    call.timer?.hold()
    call.openQuestions++
  }
  try {
    return await Promise.race([ask(signal), over])
  } finally {
    callsOver.dispose()
    for (const call of calls) {
      call.timer?.release()
      call.openQuestions--
    }
  }
}

/** Answers one question for `calls` through `asker`; failures to ask become declines. */
export async function answer(
  calls: readonly RunningCall[],
  asker: CallAsker,
  question: Question,
  request: AbortSignal | undefined,
): Promise<ElicitResult | SamplingAnswer> {
  try {
    switch (question.kind) {
      case 'form':
        return await asking(calls, request, withdrawn, (s) => asker.form(question.question, s))
      case 'url':
        return await asking(calls, request, withdrawn, (s) => asker.url(question.question, s))
      case 'sampling':
        return await asking(
          calls,
          request,
          (reason) => ({ refused: reason }),
          (s) => asker.sampling(question.params, s, question.key),
        )
    }
  } catch (error) {
    const why = `the question could not be asked: ${(error as Error).message}`
    return question.kind === 'sampling' ? { refused: why } : declined(why)
  }
}

/** Why a sampling request got no reply, or undefined for any other outcome. */
export function refusal(outcome: ElicitResult | SamplingAnswer): string | undefined {
  if ('action' in outcome || !('refused' in outcome)) return undefined
  return (outcome as { refused: string }).refused
}
