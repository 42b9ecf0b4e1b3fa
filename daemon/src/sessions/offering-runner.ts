// Prompt gets and resource reads on behalf of a session: each is bounded in time (a get by the
// server's `timeout`, a read by its `appResourceTimeoutMs`) and a read in size, and each, done or
// failed, is recorded in the session's transcript with its body when that is small enough.

import {
  ProtocolError,
  ResourceNotFoundError,
  SdkError,
  SdkErrorCode,
  type GetPromptResult,
  type ReadResourceResult,
} from '@modelcontextprotocol/client'
import type { Ferry } from '../core/ferry.js'
import { checkPromptArguments, checkReadSize, storedBody, toPromptInfo } from '../core/offerings.js'
import { ErrorCode, FerryError, errorMessage, toFerryError } from '../errors.js'
import type { Log } from '../log.js'
import type {
  ClientRef,
  CompletionRequest,
  CompletionResponse,
  PromptInfo,
} from '../protocol/index.js'
import type { ElicitationAsker, RootsAsker, SamplingAsker } from '../mcp/call-asker.js'
import { CallClock } from '../mcp/call-timer.js'
import { MAX_TOTAL_TIMEOUT_FACTOR } from '../mcp/connection.js'
import type { InputBroker } from './input-broker.js'
import type { Session } from './session.js'

const INVALID_PARAMS = -32602

export interface PromptGot {
  prompt: PromptInfo
  result: GetPromptResult
}

/** Runs `work` with a signal that aborts on `signal` or after `timeoutMs`, whichever comes first. */
async function within<T>(
  timeoutMs: number,
  signal: AbortSignal | undefined,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<{ value: T } | { timedOut: true } | { cancelled: true; error: unknown }> {
  const controller = new AbortController()
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    controller.abort()
  }, timeoutMs)
  const cancel = () => controller.abort()
  signal?.addEventListener('abort', cancel, { once: true })
  // The bound holds even if the work does not notice the abort.
  const aborted = new Promise<never>((_resolve, reject) =>
    controller.signal.addEventListener('abort', () => reject(new Error('aborted')), {
      once: true,
    }),
  )
  aborted.catch(() => {})
  try {
    if (signal?.aborted === true) controller.abort()
    return { value: await Promise.race([work(controller.signal), aborted]) }
  } catch (error) {
    if (timedOut) return { timedOut: true }
    if (signal?.aborted === true) return { cancelled: true, error }
    throw error
  } finally {
    clearTimeout(timer)
    signal?.removeEventListener('abort', cancel)
  }
}

/** What the server or the SDK threw, as the API answers it. */
function upstreamError(error: unknown, what: string, server: string): FerryError {
  if (error instanceof FerryError) return error
  if (error instanceof ResourceNotFoundError) {
    return new FerryError(ErrorCode.NotFound, `server "${server}" has no ${what}`, { cause: error })
  }
  if (error instanceof ProtocolError) {
    return new FerryError(
      error.code === INVALID_PARAMS ? ErrorCode.BadRequest : ErrorCode.UpstreamError,
      `server "${server}" refused ${what}: ${errorMessage(error)}`,
      { cause: error },
    )
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) {
    return new FerryError(
      ErrorCode.ServerCrashed,
      `server "${server}" closed the connection during ${what}`,
      {
        cause: error,
      },
    )
  }
  return new FerryError(
    ErrorCode.UpstreamError,
    `${what} of server "${server}" failed: ${errorMessage(error)}`,
    {
      cause: error,
    },
  )
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`
}

/** Who answers a prompt get's questions instead of the people: a gateway client's own askers. */
export interface PromptAskers {
  elicit?: ElicitationAsker | undefined
  sample?: SamplingAsker | undefined
  roots?: RootsAsker | undefined
  /** Why the client itself cannot be asked a form question, for the reason nobody was. */
  elicitUnavailable?: string | undefined
}

export class OfferingRunner {
  constructor(
    private readonly ferry: Ferry,
    private readonly inputs: InputBroker,
    private readonly log: Log,
  ) {}

  /**
   * Gets a prompt by its qualified name and records `prompt.got` (or `prompt.failed`). A
   * 2026-07-28 server's questions before it answers go to the people in the session, as a call's
   * do (to `hooks`' askers instead, when given: a gateway client's own), and the server's timeout
   * waits while they are open.
   */
  async getPrompt(
    session: Session,
    request: { name: string; arguments: Record<string, string> },
    client: ClientRef,
    signal?: AbortSignal,
    hooks: PromptAskers = {},
  ): Promise<PromptGot> {
    const named = this.ferry.offerings.prompt(request.name)
    checkPromptArguments(named, request.arguments)
    const args = request.arguments
    const timeoutMs = this.ferry.serverConfig(named.server)?.timeout ?? 60_000
    const what = `prompt "${named.prompt.name}"`
    const clock = new CallClock(timeoutMs, timeoutMs * MAX_TOTAL_TIMEOUT_FACTOR, signal)
    const asker = this.inputs.asker(
      {
        session,
        callId: null,
        server: named.server,
        callerCanAnswer: false,
        callerUnable: hooks.elicitUnavailable,
      },
      hooks.elicit,
      hooks.sample,
      hooks.roots,
    )
    try {
      let value: GetPromptResult
      try {
        value = await this.ferry.offerings.getPrompt(named.server, named.prompt.name, args, {
          signal: clock.signal,
          asker,
          timer: clock.timer,
        })
      } catch (error) {
        if (clock.expired(named.server, what) !== undefined) {
          throw new FerryError(
            ErrorCode.Timeout,
            `server "${named.server}" did not answer ${what} within ${seconds(timeoutMs)} (its timeout)`,
          )
        }
        if (signal?.aborted === true) {
          throw new FerryError(ErrorCode.ToolCancelled, `getting ${what} was cancelled`)
        }
        throw error
      } finally {
        clock.stop()
      }
      await session.emit(
        {
          type: 'prompt.got',
          server: named.server,
          prompt: named.prompt.name,
          arguments: args,
          result: storedBody(value),
        },
        client,
      )
      return { prompt: toPromptInfo(named), result: value }
    } catch (error) {
      const failure = this.reported(upstreamError(error, what, named.server), session)
      await session.emit(
        {
          type: 'prompt.failed',
          server: named.server,
          prompt: named.prompt.name,
          arguments: args,
          error: { code: failure.code, message: failure.message },
        },
        client,
      )
      throw failure
    }
  }

  /** Reads a resource of `server` and records `resource.read` (or `resource.read_failed`). */
  async readResource(
    session: Session,
    server: string,
    uri: string,
    client: ClientRef,
    signal?: AbortSignal,
  ): Promise<ReadResourceResult> {
    // An unknown or stopped server is refused before anything is recorded.
    const config = this.ferry.serverConfig(server)
    if (config === undefined) this.ferry.offerings.resources(server)
    const timeoutMs = config?.appResourceTimeoutMs ?? 5_000
    const what = `resource ${uri}`
    try {
      const outcome = await within(timeoutMs, signal, (inner) =>
        this.ferry.offerings.readResource(server, uri, inner),
      )
      if ('timedOut' in outcome) {
        throw new FerryError(
          ErrorCode.Timeout,
          `server "${server}" did not answer the read of ${uri} within ${seconds(timeoutMs)} (its appResourceTimeoutMs)`,
        )
      }
      if ('cancelled' in outcome) {
        throw new FerryError(ErrorCode.ToolCancelled, `reading ${uri} was cancelled`)
      }
      checkReadSize(server, uri, outcome.value)
      await session.emit(
        { type: 'resource.read', server, uri, result: storedBody(outcome.value) },
        client,
      )
      return outcome.value
    } catch (error) {
      const failure = this.reported(upstreamError(error, what, server), session)
      await session.emit(
        {
          type: 'resource.read_failed',
          server,
          uri,
          error: { code: failure.code, message: failure.message },
        },
        client,
      )
      throw failure
    }
  }

  /** Completion values for what the person is typing; not recorded. */
  async complete(request: CompletionRequest, signal?: AbortSignal): Promise<CompletionResponse> {
    const timeoutMs = this.ferry.serverConfig(request.server)?.timeout
    // An unknown or stopped server is named before anything is asked.
    if (timeoutMs === undefined) this.ferry.offerings.resources(request.server)
    const limit = timeoutMs ?? 60_000
    const what = 'a completion'
    let outcome
    try {
      outcome = await within(limit, signal, (inner) =>
        this.ferry.offerings.complete(
          request.server,
          {
            ref: request.ref,
            argument: request.argument,
            ...(request.context === undefined ? {} : { context: request.context }),
          },
          inner,
        ),
      )
    } catch (error) {
      throw upstreamError(error, what, request.server)
    }
    if ('timedOut' in outcome) {
      throw new FerryError(
        ErrorCode.Timeout,
        `server "${request.server}" did not answer ${what} within ${seconds(limit)} (its timeout)`,
      )
    }
    if ('cancelled' in outcome) throw new FerryError(ErrorCode.ToolCancelled, 'cancelled')
    const { values, total, hasMore } = outcome.value.completion
    return { values, total: total ?? null, hasMore: hasMore === true }
  }

  private reported(error: FerryError, session: Session): FerryError {
    return toFerryError(error, this.log, { where: 'offering', session: session.id })
  }
}
