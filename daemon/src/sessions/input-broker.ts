// Inputs: questions servers ask during calls (elicitation, sampling), recorded as `input.requested`
// in the session of the call that asked, sent to every attached client that can answer; the first
// valid answer wins and is recorded as `input.resolved` with who gave it. Nobody able to answer,
// the call ending, or every answerer leaving ends the question at once, with the reason.

import { randomBytes } from 'node:crypto'
import type { CreateMessageResult, ElicitResult } from '@modelcontextprotocol/client'
import { ErrorCode, FerryError, errorMessage } from '../errors.js'
import type { Log } from '../log.js'
import {
  CALL_ENDED,
  DECLINE_REASON_META_KEY,
  type CallAsker,
  type ElicitationAsker,
  type SamplingAnswer,
  type RootsAsker,
  type SamplingAsker,
} from '../mcp/call-asker.js'
import type {
  ClientRef,
  InputAction,
  InputAnswer,
  InputAnswerResponse,
  TranscriptEventBody,
} from '../protocol/index.js'
import { SchemaValidator } from '../tools/schema-validator.js'
import { checkAccept, requestedEvent, type InputQuestion } from './input-questions.js'
import type { Session } from './session.js'

/** Where a call's questions go. */
export interface InputTarget {
  session: Session
  /** Null for what is no call: a prompt get. */
  callId: string | null
  server: string
  /** The caller answers its own call's questions (an `interactive` NDJSON caller). */
  callerCanAnswer: boolean
  /** Why the caller itself cannot be asked (a gateway client), for the reason nobody was. */
  callerUnable?: string | undefined
}

/** How a question ended. */
export type InputOutcome =
  | { action: 'accept'; result: ElicitResult | CreateMessageResult; by: ClientRef }
  | { action: 'decline' | 'cancel'; reason: string | undefined; by: ClientRef | null }

interface OpenInput {
  question: InputQuestion
  sessions: Session[]
  callerCanAnswer: boolean
  server: string
  resolve: (outcome: InputOutcome) => void
}

export const NOBODY_CAN_ANSWER =
  'nobody attached to Ferry can answer it: open the WebShell (`ferry open`) or attach a terminal (`ferry attach`), then call again'
export const ANSWERERS_LEFT = 'every client that could answer it detached'

/** Answers are remembered this long after the fact, to tell late clients who answered. */
const RESOLVED_MEMORY = 1000

function elicitResult(outcome: InputOutcome): ElicitResult {
  if (outcome.action === 'accept') return outcome.result as ElicitResult
  return {
    action: outcome.action,
    ...(outcome.reason === undefined
      ? {}
      : { _meta: { [DECLINE_REASON_META_KEY]: outcome.reason } }),
  }
}

function samplingAnswer(outcome: InputOutcome): SamplingAnswer {
  if (outcome.action === 'accept') return { result: outcome.result as CreateMessageResult }
  const who = outcome.by === null ? '' : ` by ${outcome.by.label}`
  return {
    refused:
      outcome.reason ??
      (outcome.action === 'decline' ? `declined${who} in Ferry` : `dismissed${who} in Ferry`),
  }
}

export class InputBroker {
  private readonly open = new Map<string, OpenInput>()
  private readonly resolved = new Map<string, { action: InputAction; by: string }>()
  private readonly targets = new WeakMap<CallAsker, InputTarget[]>()
  private readonly validator: SchemaValidator

  constructor(private readonly log: Log) {
    this.validator = new SchemaValidator('content', (server, error) =>
      log({ kind: 'input.schema_unchecked', server, error }),
    )
  }

  /**
   * Who answers the questions of one call: the people attached to its session (and the caller,
   * when it can); `form` and `sampling`, when given, answer those questions instead (a gateway
   * client's own), and `roots` gives the caller's roots.
   */
  asker(
    target: InputTarget,
    form?: ElicitationAsker,
    sampling?: SamplingAsker,
    roots?: RootsAsker,
  ): CallAsker {
    // The asker itself, not a copy: `together` knows the askers it made.
    const asker = this.askerFor([target], form, sampling)
    if (roots !== undefined) asker.roots = roots
    return asker
  }

  /** Records the question and resolves with how it ended. */
  async ask(
    targets: readonly InputTarget[],
    question: InputQuestion,
    signal: AbortSignal,
  ): Promise<InputOutcome> {
    const inputId = randomBytes(8).toString('hex')
    const sessions = [...new Set(targets.map((target) => target.session))]
    const only = targets.length === 1 ? targets[0] : undefined
    const server = targets[0]?.server ?? ''
    let event
    try {
      event = requestedEvent(inputId, only?.callId ?? null, server, question)
    } catch (error) {
      return { action: 'decline', reason: errorMessage(error), by: null }
    }
    const callerCanAnswer = only?.callerCanAnswer === true
    await this.emit(sessions, event, null)
    const why = () => (typeof signal.reason === 'string' ? signal.reason : CALL_ENDED)
    if (signal.aborted) return this.end(inputId, sessions, 'cancel', why())
    if (!callerCanAnswer && !sessions.some((session) => session.answererCount() > 0)) {
      const reason =
        only?.callerUnable === undefined
          ? NOBODY_CAN_ANSWER
          : `${only.callerUnable}, and ${NOBODY_CAN_ANSWER}`
      return this.end(inputId, sessions, 'decline', reason)
    }
    return new Promise<InputOutcome>((resolve) => {
      // Answered or withdrawn, the question stops listening: a call may ask many in turn.
      const withdraw = () => this.withdraw(inputId, why())
      const settle = (outcome: InputOutcome) => {
        signal.removeEventListener('abort', withdraw)
        resolve(outcome)
      }
      this.open.set(inputId, { question, sessions, callerCanAnswer, server, resolve: settle })
      signal.addEventListener('abort', withdraw, { once: true })
    })
  }

  /** An answer from any client; a second gets a Conflict naming the first, a bad one 422. */
  async answer(inputId: string, answer: InputAnswer, by: ClientRef): Promise<InputAnswerResponse> {
    const done = this.resolved.get(inputId)
    if (done !== undefined) {
      throw new FerryError(ErrorCode.Conflict, `already answered by ${done.by}: ${done.action}`)
    }
    const open = this.open.get(inputId)
    if (open === undefined) {
      throw new FerryError(ErrorCode.NotFound, `no question is open with id ${inputId}`)
    }
    const checked =
      answer.action === 'accept'
        ? checkAccept(open.question, answer, this.validator, open.server)
        : undefined
    this.open.delete(inputId)
    this.remember(inputId, answer.action, by.label)
    try {
      await this.emit(
        open.sessions,
        { type: 'input.resolved', inputId, action: answer.action, ...checked?.recorded },
        by,
      )
    } catch (error) {
      // An answer that cannot be recorded is not sent: the server hears the question was dismissed.
      open.resolve({ action: 'cancel', reason: 'the answer could not be recorded', by: null })
      throw error
    }
    open.resolve(
      checked === undefined
        ? { action: answer.action as 'decline' | 'cancel', reason: undefined, by }
        : { action: 'accept', result: checked.result, by },
    )
    return { inputId, action: answer.action }
  }

  /** Every client that could answer left `session`: questions only they could answer end. */
  answerersLeft(session: Session): void {
    for (const [inputId, open] of this.open) {
      if (!open.sessions.includes(session) || open.callerCanAnswer) continue
      if (open.sessions.some((other) => other.answererCount() > 0)) continue
      this.withdraw(inputId, ANSWERERS_LEFT)
    }
  }

  private askerFor(
    targets: InputTarget[],
    form?: ElicitationAsker,
    sampling?: SamplingAsker,
  ): CallAsker {
    const ask = (question: InputQuestion, signal: AbortSignal) =>
      this.ask(targets, question, signal)
    const asker: CallAsker = {
      form:
        form ??
        (async (question, signal) =>
          elicitResult(await ask({ kind: 'form', ...question }, signal))),
      url: async (question, signal) =>
        elicitResult(await ask({ kind: 'url', ...question }, signal)),
      sampling:
        sampling ??
        (async (params, signal) => samplingAnswer(await ask({ kind: 'sampling', params }, signal))),
      together: (others) => {
        const all = [...targets]
        for (const other of others) {
          const known = this.targets.get(other)
          if (known === undefined) return undefined
          all.push(...known)
        }
        // Asked on behalf of several calls: only the people attached can answer, not one caller.
        return this.askerFor(all.map((target) => ({ ...target, callerCanAnswer: false })))
      },
    }
    this.targets.set(asker, targets)
    return asker
  }

  private withdraw(inputId: string, reason: string): void {
    const open = this.open.get(inputId)
    if (open === undefined) return
    this.open.delete(inputId)
    void this.end(inputId, open.sessions, 'cancel', reason).then(open.resolve)
  }

  /** Ferry ends the question itself: recorded with the reason, and that is the outcome. */
  private async end(
    inputId: string,
    sessions: Session[],
    action: 'decline' | 'cancel',
    reason: string,
  ): Promise<InputOutcome> {
    this.remember(inputId, action, `Ferry (${reason})`)
    await this.emit(sessions, { type: 'input.resolved', inputId, action, reason }, null).catch(
      () => {},
    )
    return { action, reason, by: null }
  }

  private async emit(
    sessions: Session[],
    body: TranscriptEventBody,
    client: ClientRef | null,
  ): Promise<void> {
    const results = await Promise.allSettled(sessions.map((session) => session.emit(body, client)))
    const failed = results.find((result) => result.status === 'rejected')
    if (failed !== undefined) {
      this.log({ kind: 'input.unrecorded', type: body.type, error: String(failed.reason) })
      throw failed.reason
    }
  }

  private remember(inputId: string, action: InputAction, by: string): void {
    this.resolved.set(inputId, { action, by })
    if (this.resolved.size > RESOLVED_MEMORY) {
      const oldest = this.resolved.keys().next().value
      if (oldest !== undefined) this.resolved.delete(oldest)
    }
  }
}
