// The MCP Tasks extension (`io.modelcontextprotocol/tasks`) on the gateway. A client that declares
// it (per request in 2026-07-28, in `initialize` on a legacy session) gets a task instead of a
// blocking answer for a call of a tool that may run as one (`taskSupport`, see
// tools/task-support.ts), once the call waits for the person or has run `gateway.taskAfterMs`.
// Then `tasks/get`, `tasks/cancel` and `tasks/update` for that task: a question the call asks its
// client once it is a task makes the task `input_required`, and `tasks/update` brings the answers.
// Other calls and other clients never get one.

import { randomUUID } from 'node:crypto'
import {
  INVALID_PARAMS,
  INTERNAL_ERROR,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  type CallToolResult,
  type InputRequiredResult,
  type InputRequests,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server'
import { z } from 'zod'
import type { GatewaySettings } from '../config/types.js'
import { errorMessage } from '../errors.js'
import type { Log } from '../log.js'
import { isCallEnd } from '../protocol/index.js'
import type { SessionHandle, SessionsApi } from '../service/ferry-service.js'
import { declaresTasksExtension, TASKS_EXTENSION, type TaskSupport } from '../tools/task-support.js'
import { requestCapabilities, type ClientView } from './client-view.js'
import { deniedResult, gatewayClientRef, WAITING_MESSAGE, type CallWatch } from './gateway-call.js'
import { TranscriptTaskStore, type TaskSnapshot, type TaskStore } from './task-store.js'

export { TASKS_EXTENSION }

/** How often a client is asked to poll `tasks/get`. */
export const TASK_POLL_MS = 1_000

const byTaskId = z.looseObject({ taskId: z.string().min(1) })

/** Where a task's questions wait (the gateway's elicitation, see elicitation.ts). */
export interface TaskInput {
  /** The call a `tools/call` retry continues; undefined for a first round. */
  retriedCall(ctx: ServerContext): string | undefined
  /** The call became a task: its questions wait for `taskInput` from now on. */
  detach(callId: string): void
  taskInput(callId: string): InputRequests | undefined
  answerTask(callId: string, responses: Record<string, unknown> | undefined): void
}

export interface GatewayTasksDeps {
  sessions: SessionsApi
  log: Log
  settings: () => GatewaySettings
  elicitation: TaskInput
}

/** Whether the request's client declared the extension. */
function declaresTasks(server: Server, ctx: ServerContext): boolean {
  return declaresTasksExtension(requestCapabilities(server, ctx))
}

export class GatewayTasks {
  private readonly store: TaskStore

  constructor(
    private readonly deps: GatewayTasksDeps,
    store?: TaskStore,
  ) {
    this.store = store ?? new TranscriptTaskStore(deps.sessions)
  }

  /** What the gateway declares under `capabilities.extensions`. */
  static readonly extensions = { [TASKS_EXTENSION]: {} }

  /**
   * Runs one call of a tool with `taskSupport`, or one round of it. For a client that declared the
   * extension it answers with a task, and lets the call run on without the request, as soon as
   * the call waits for a confirmation or the request has run `taskAfterMs`; a call that ends
   * sooner answers as usual. Questions the call puts to
   * the client before that are answered in rounds, as for any call; once it is a task, they wait
   * for `tasks/get` and `tasks/update`. Any other call keeps its request until it ends.
   */
  async call<R extends CallToolResult | InputRequiredResult>(
    server: Server,
    ctx: ServerContext,
    view: ClientView,
    taskSupport: TaskSupport | null,
    run: (watch: CallWatch) => Promise<R>,
  ): Promise<R> {
    if (taskSupport === null || !declaresTasks(server, ctx)) return run({})
    let detached = false
    /** The request was answered: the call can no longer become a task through it. */
    let answered = false
    let timer: NodeJS.Timeout | undefined
    let begin: (call: { session: SessionHandle; callId: string }) => void = () => {}
    const tasked = new Promise<{ session: SessionHandle; callId: string }>(
      (resolve) => (begin = resolve),
    )
    const toTask = (session: SessionHandle, callId: string) => {
      if (detached || answered) return
      // From here on the request is no longer the call's: its end does not cancel the call.
      detached = true
      clearTimeout(timer)
      begin({ session, callId })
    }
    const watch: CallWatch = {
      detached: () => detached,
      onEvent: (event, session) => {
        if (event.type === 'call.requested') {
          const after = this.deps.settings().taskAfterMs
          timer = setTimeout(() => toTask(session, event.callId), after)
        } else if (event.type === 'confirmation.requested') toTask(session, event.callId)
        else if (isCallEnd(event)) clearTimeout(timer)
      },
    }
    const result = run(watch)
    // A retry with answers continues a call already recorded: its time counts from the retry.
    const retried = this.deps.elicitation.retriedCall(ctx)
    if (retried !== undefined) {
      timer = setTimeout(() => {
        this.deps.sessions
          .resolve(view.grant.session ?? undefined)
          .then((session) => toTask(session, retried))
          .catch((error: unknown) =>
            this.deps.log({ kind: 'gateway.task_unrecorded', error: errorMessage(error) }),
          )
      }, this.deps.settings().taskAfterMs)
    }
    const first = await Promise.race([
      result.then((done) => ({ done })),
      tasked.then((call) => ({ call })),
    ])
    if ('done' in first) {
      answered = true
      clearTimeout(timer)
      return first.done
    }
    result.catch((error: unknown) =>
      this.deps.log({ kind: 'gateway.task_call_failed', error: errorMessage(error) }),
    )
    const owner = gatewayClientRef(view)
    try {
      const snapshot = await this.store.create({
        taskId: randomUUID(),
        callId: first.call.callId,
        session: first.call.session.id,
        owner,
      })
      this.deps.elicitation.detach(snapshot.callId)
      const task = wireTask(snapshot, view, this.deps.elicitation.taskInput(snapshot.callId))
      // The SDK passes a `task` result through as it is; its types know only complete results.
      return { resultType: 'task', ...task } as unknown as R
    } catch (error) {
      // Without a stored task there is nothing to poll: the client waits for the call instead.
      this.deps.log({ kind: 'gateway.task_unrecorded', error: errorMessage(error) })
      detached = false
      return result
    }
  }

  /**
   * The -32021 refusal of a call of a tool its server declares `execution.taskSupport: "required"`
   * from a client that did not declare the extension: such a tool runs only as a task.
   */
  static refusalFor(
    server: Server,
    ctx: ServerContext,
    taskSupport: TaskSupport | null,
  ): MissingRequiredClientCapabilityError | undefined {
    if (taskSupport !== 'required' || declaresTasks(server, ctx)) return undefined
    return new MissingRequiredClientCapabilityError(
      { requiredCapabilities: { extensions: GatewayTasks.extensions } },
      `Missing required client capability: this tool runs only as a task; declare the ${TASKS_EXTENSION} extension in your client capabilities to call it`,
    )
  }

  /** Registers `tasks/get`, `tasks/cancel` and `tasks/update`; `tasks/list` stays unknown. */
  register(server: Server, view: ClientView): void {
    const owner = gatewayClientRef(view)
    const find = async (taskId: string, ctx: ServerContext): Promise<TaskSnapshot> => {
      if (!declaresTasks(server, ctx)) {
        throw new MissingRequiredClientCapabilityError(
          { requiredCapabilities: { extensions: GatewayTasks.extensions } },
          `Missing required client capability: declare the ${TASKS_EXTENSION} extension in your client capabilities to use tasks`,
        )
      }
      const snapshot = await this.store.get(taskId, owner)
      if (snapshot === undefined) {
        throw new ProtocolError(
          INVALID_PARAMS,
          `Failed to retrieve task: no task "${taskId}" for this client (a task id is valid only for the client whose call it is)`,
        )
      }
      return snapshot
    }
    server.setRequestHandler('tasks/get', { params: byTaskId }, async ({ taskId }, ctx) => {
      const snapshot = await find(taskId, ctx)
      const input =
        snapshot.progress.status === 'working'
          ? this.deps.elicitation.taskInput(snapshot.callId)
          : undefined
      return { resultType: 'complete', ...wireTask(snapshot, view, input) }
    })
    server.setRequestHandler('tasks/cancel', { params: byTaskId }, async ({ taskId }, ctx) => {
      const snapshot = await find(taskId, ctx)
      if (snapshot.progress.status === 'working') {
        try {
          this.deps.sessions.cancel(snapshot.callId, owner)
        } catch {
          // It ended meanwhile: cancelling an ended task changes nothing.
        }
      }
      return { resultType: 'complete' }
    })
    server.setRequestHandler('tasks/update', { params: byTaskId }, async ({ taskId }, ctx) => {
      const snapshot = await find(taskId, ctx)
      // Answers to questions no longer open (or never asked) change nothing.
      this.deps.elicitation.answerTask(snapshot.callId, ctx.mcpReq.inputResponses)
      return { resultType: 'complete' }
    })
  }
}

/**
 * The task as the extension puts it on the wire (`DetailedTask`); `input`: the questions a
 * working task's call waits on, which make it `input_required`.
 */
function wireTask(
  snapshot: TaskSnapshot,
  view: ClientView,
  input?: InputRequests,
): Record<string, unknown> {
  const name = view.grant.unprefixed ? snapshot.serverTool : snapshot.tool
  const base = {
    taskId: snapshot.taskId,
    createdAt: snapshot.createdAt,
    lastUpdatedAt: snapshot.lastUpdatedAt,
    // The task lives as long as the transcript that holds it.
    ttlMs: null,
    pollIntervalMs: TASK_POLL_MS,
  }
  const { progress } = snapshot
  switch (progress.status) {
    case 'working':
      if (input !== undefined) return { ...base, status: 'input_required', inputRequests: input }
      return {
        ...base,
        status: 'working',
        ...(progress.confirming ? { statusMessage: WAITING_MESSAGE } : {}),
      }
    case 'completed': {
      const result =
        progress.denied === null
          ? progress.result
          : deniedResult(name, progress.denied.by ?? undefined)
      // Inlined as it would have gone on the 2026-07-28 wire.
      return { ...base, status: 'completed', result: { ...result, resultType: 'complete' } }
    }
    case 'failed':
      return {
        ...base,
        status: 'failed',
        statusMessage: progress.error.message,
        error: {
          code: INTERNAL_ERROR,
          message: progress.error.message,
          data: { code: progress.error.code },
        },
      }
    case 'cancelled': {
      const by = progress.by
      return {
        ...base,
        status: 'cancelled',
        statusMessage:
          by === null
            ? `${name} was cancelled`
            : by.id === gatewayClientRef(view).id
              ? `${name} was cancelled by this client`
              : `${name} was cancelled in Ferry by ${by.label}`,
      }
    }
  }
}
