// Tools that must run as 2025-11-25 tasks (`execution.taskSupport: "required"`): the call goes out
// task-augmented, the task's status is polled and reported as progress, its result is fetched with
// `tasks/result`, and a cancel or a timeout sends `tasks/cancel`. On 2026-07-28 connections the
// SDK cannot take a task result, so such tools cannot be called there.

import { SdkError, SdkErrorCode, specTypeSchemas } from '@modelcontextprotocol/client'
import type {
  CallToolResult,
  Client,
  Progress,
  ProtocolEra,
  ServerCapabilities,
  Task,
} from '@modelcontextprotocol/client'
import { errorMessage } from '../errors.js'
import { declaresTasksExtension } from '../tools/task-support.js'

/** Polling stays within these bounds whatever interval the server suggests. */
export const MIN_TASK_POLL_MS = 100
export const MAX_TASK_POLL_MS = 5_000
const DEFAULT_TASK_POLL_MS = 1_000
/** `tasks/cancel` after a cancel or a timeout waits this long for its answer at most. */
const CANCEL_WAIT_MS = 5_000
/** The longest delay a Node timer takes: `tasks/result` blocks until the task ends. */
const LONGEST_TIMER_MS = 2_147_483_647

/** How a connection takes calls of tools that need a task. */
export interface TaskCalls {
  /** Sent as tasks: a legacy server that declares task-augmented `tools/call`. */
  asTask: boolean
  /** Why such tools cannot be called at all on this connection, or null. */
  blocker: string | null
  /** The server declares the Tasks extension: its tools may run as tasks (see task-support.ts). */
  serverTasks: boolean
}

export const NO_TASK_CALLS: TaskCalls = { asTask: false, blocker: null, serverTasks: false }

/**
 * A legacy server that declares task-augmented `tools/call` gets tasks; one that does not gets plain
 * calls, since a client must not send a task it did not offer (its answer is the server's to
 * give). A 2026-07-28 connection cannot take a task result at all.
 */
export function taskCallsOn(
  era: ProtocolEra | undefined,
  capabilities: ServerCapabilities | undefined,
): TaskCalls {
  const serverTasks = declaresTasksExtension(capabilities)
  if (era === 'modern') {
    return {
      asTask: false,
      serverTasks,
      blocker:
        'it runs only as a task, and on a 2026-07-28 connection a task comes through the Tasks extension (io.modelcontextprotocol/tasks), whose task results the MCP SDK Ferry uses cannot receive',
    }
  }
  const tasks = (capabilities as { tasks?: { requests?: { tools?: { call?: unknown } } } })?.tasks
  return { asTask: tasks?.requests?.tools?.call !== undefined, blocker: null, serverTasks }
}

export interface TaskCallOptions {
  /** Ends the call: a cancel or Ferry's call timer running out; either sends `tasks/cancel`. */
  signal?: AbortSignal | undefined
  /** Each request's own timeout. */
  timeout: number
  onprogress?: ((progress: Progress) => void) | undefined
  /** The server answered a poll: the task is still being worked on. */
  onAlive?: (() => void) | undefined
}

const terminal = new Set(['completed', 'failed', 'cancelled'])

/** The status as a person reads it: a working task's own message, or its state first. */
function describeStatus(task: Task): string {
  const state = task.status.replace('_', ' ')
  if (task.status === 'working') return task.statusMessage ?? state
  // A finished task often keeps the message of its last step.
  if (task.status === 'completed' || task.statusMessage === undefined) return state
  return `${state}: ${task.statusMessage}`
}

/** A wait of `ms` that ends early when `signal` aborts or `end()` is called. */
function pause(ms: number, signal: AbortSignal): { over: Promise<void>; end: () => void } {
  let end = () => {}
  const over = new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done, { once: true })
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    end = done
  })
  return { over, end }
}

/** Runs `tool` as a task and resolves with its result, as `callTool` would for a plain call. */
export async function callAsTask(
  client: Client,
  tool: string,
  args: Record<string, unknown>,
  options: TaskCallOptions,
): Promise<CallToolResult> {
  const { timeout, signal } = options
  const created = await client.request(
    {
      method: 'tools/call',
      params: { name: tool, arguments: args, task: {} },
    },
    specTypeSchemas.CreateTaskResult,
    { signal, timeout },
  )
  return new TaskRun(client, tool, created.task, options).settle()
}

/** One task from creation to its end; `settle()` once. */
class TaskRun {
  private readonly done = new AbortController()
  private readonly wake: AbortSignal
  private steps = 0
  private lastSeen = ''

  constructor(
    private readonly client: Client,
    private readonly tool: string,
    private task: Task,
    private readonly options: TaskCallOptions,
  ) {
    this.wake =
      options.signal === undefined
        ? this.done.signal
        : AbortSignal.any([options.signal, this.done.signal])
  }

  async settle(): Promise<CallToolResult> {
    let fetching: Promise<void> | undefined
    let fetched: { result: CallToolResult } | { error: unknown } | undefined
    try {
      this.report()
      for (;;) {
        const { status } = this.task
        if (status === 'cancelled') throw this.cancelledByServer()
        // The server delivers its questions for the task, and the result, through `tasks/result`.
        if (fetching === undefined && (status === 'input_required' || terminal.has(status))) {
          fetching = this.fetchResult().then(
            (result) => void (fetched = { result }),
            (error: unknown) => void (fetched = { error }),
          )
        }
        // The next poll waits the server's interval, or less only when the result came first.
        const wait = pause(this.pollInterval(), this.wake)
        await (fetching === undefined ? wait.over : Promise.race([wait.over, fetching]))
        wait.end()
        if (fetched !== undefined) return this.outcome(fetched)
        this.options.signal?.throwIfAborted()
        this.task = await this.client.request(
          { method: 'tasks/get', params: { taskId: this.task.taskId } },
          specTypeSchemas.GetTaskResult,
          { signal: this.wake, timeout: this.options.timeout },
        )
        this.options.onAlive?.()
        this.report()
      }
    } catch (error) {
      if (this.options.signal?.aborted === true || isTimeout(error)) await this.cancelTask()
      throw error
    } finally {
      this.done.abort()
    }
  }

  private fetchResult(): Promise<CallToolResult> {
    return this.client.request(
      { method: 'tasks/result', params: { taskId: this.task.taskId } },
      specTypeSchemas.CallToolResult,
      { signal: this.wake, timeout: LONGEST_TIMER_MS },
    )
  }

  private outcome(fetched: { result: CallToolResult } | { error: unknown }): CallToolResult {
    if ('result' in fetched) return fetched.result
    this.options.signal?.throwIfAborted()
    const why =
      this.task.status === 'failed'
        ? (this.task.statusMessage ?? 'no reason given')
        : errorMessage(fetched.error)
    // Phrased by the caller as the server's error, like any other failed call.
    throw new Error(`the task of ${this.tool} ${this.task.status}: ${why}`, {
      cause: fetched.error,
    })
  }

  private cancelledByServer(): Error {
    const why = this.task.statusMessage === undefined ? '' : `: ${this.task.statusMessage}`
    return new Error(`the server cancelled the task of ${this.tool}${why}`)
  }

  private pollInterval(): number {
    const suggested = this.task.pollInterval ?? DEFAULT_TASK_POLL_MS
    return Math.min(MAX_TASK_POLL_MS, Math.max(MIN_TASK_POLL_MS, suggested))
  }

  /** Each new status or status message is one step of progress. */
  private report(): void {
    const seen = `${this.task.status}\n${this.task.statusMessage ?? ''}`
    if (seen === this.lastSeen) return
    this.lastSeen = seen
    this.steps++
    this.options.onprogress?.({ progress: this.steps, message: describeStatus(this.task) })
  }

  /** Tells the server to stop the task; the call ends either way. */
  private async cancelTask(): Promise<void> {
    if (terminal.has(this.task.status)) return
    await this.client
      .request(
        { method: 'tasks/cancel', params: { taskId: this.task.taskId } },
        specTypeSchemas.CancelTaskResult,
        { timeout: Math.min(this.options.timeout, CANCEL_WAIT_MS) },
      )
      .catch(() => {})
  }
}

function isTimeout(error: unknown): boolean {
  return error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout
}
