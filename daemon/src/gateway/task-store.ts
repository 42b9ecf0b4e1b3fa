// Where the gateway's tasks live: one interface, implemented here over the sessions' transcripts.
// A task is a `call.task` event next to the call it stands for, so what became of the call is
// what became of the task, and a restarted daemon still answers for the tasks of its last run.

import type { CallToolResult, ClientRef, TranscriptEvent } from '../protocol/index.js'
import type { SessionsApi } from '../service/ferry-service.js'

/** A call that answered its client with a task. */
export interface NewTask {
  taskId: string
  callId: string
  /** The session the call runs in. */
  session: string
  /** The gateway client whose call it is: the only one that may see or cancel the task. */
  owner: ClientRef
}

/** Where the task's call stands. */
export type TaskProgress =
  | { status: 'working'; confirming: boolean }
  | {
      status: 'completed'
      result: CallToolResult
      /** Set when the person denied the call: who did (null when the answer named nobody). */
      denied: { by: string | null } | null
    }
  | { status: 'failed'; error: { code: string; message: string } }
  | { status: 'cancelled'; by: ClientRef | null }

export interface TaskSnapshot {
  taskId: string
  callId: string
  createdAt: string
  lastUpdatedAt: string
  /** The qualified tool name and the server's own name for it. */
  tool: string
  serverTool: string
  progress: TaskProgress
}

/** The task state several gateway instances would share; see docs/gateway.md "Tasks". */
export interface TaskStore {
  /** Records the task; once this resolves, `get` finds it, in this run and after a restart. */
  create(task: NewTask): Promise<TaskSnapshot>
  /** The task as its call stands now; undefined when no such task belongs to `owner`. */
  get(taskId: string, owner: ClientRef): Promise<TaskSnapshot | undefined>
}

interface IndexEntry {
  session: string
  callId: string
  ownerId: string
}

/** The failure a call cut short by the daemon stopping reports. */
export const INTERRUPTED_ERROR = {
  code: 'interrupted',
  message: 'Ferry stopped while this call was running, so its outcome is unknown; call it again',
}

export class TranscriptTaskStore implements TaskStore {
  /** taskId → where its `call.task` event is; read from the transcripts on first use. */
  private index: Map<string, IndexEntry> | undefined

  constructor(private readonly sessions: SessionsApi) {}

  async create(task: NewTask): Promise<TaskSnapshot> {
    const index = this.indexed()
    const session = this.sessions.get(task.session)
    await session.emit({ type: 'call.task', callId: task.callId, taskId: task.taskId }, task.owner)
    index.set(task.taskId, { session: task.session, callId: task.callId, ownerId: task.owner.id })
    const snapshot = await this.get(task.taskId, task.owner)
    if (snapshot === undefined) throw new Error(`task ${task.taskId} was not found once stored`)
    return snapshot
  }

  async get(taskId: string, owner: ClientRef): Promise<TaskSnapshot | undefined> {
    const entry = this.indexed().get(taskId)
    if (entry === undefined || entry.ownerId !== owner.id) return undefined
    const session = this.sessions.all().find((candidate) => candidate.id === entry.session)
    // A deleted session takes its tasks with it.
    if (session === undefined) return undefined
    const events = session
      .eventsAfter(0)
      .filter((event) => 'callId' in event && event.callId === entry.callId)
    return snapshotOf(taskId, events)
  }

  private indexed(): Map<string, IndexEntry> {
    if (this.index !== undefined) return this.index
    const index = new Map<string, IndexEntry>()
    for (const session of this.sessions.all()) {
      for (const event of session.eventsAfter(0)) {
        if (event.type !== 'call.task' || event.client === null) continue
        index.set(event.taskId, {
          session: session.id,
          callId: event.callId,
          ownerId: event.client.id,
        })
      }
    }
    this.index = index
    return index
  }
}

/** The task as the events of its call tell it, oldest first. */
function snapshotOf(taskId: string, events: readonly TranscriptEvent[]): TaskSnapshot | undefined {
  const task = events.find((event) => event.type === 'call.task' && event.taskId === taskId)
  const requested = events.find((event) => event.type === 'call.requested')
  if (task === undefined || requested?.type !== 'call.requested') return undefined
  let lastUpdatedAt = task.time
  let confirming = false
  let denied: { by: string | null } | null = null
  let progress: TaskProgress | undefined
  for (const event of events) {
    if (event.time > lastUpdatedAt) lastUpdatedAt = event.time
    if (progress !== undefined) continue
    switch (event.type) {
      case 'confirmation.requested':
        confirming = true
        break
      case 'confirmation.resolved':
        confirming = false
        if (event.outcome === 'deny') denied = { by: event.client?.label ?? null }
        break
      case 'call.result':
        progress = { status: 'completed', result: event.result, denied }
        break
      case 'call.failed':
        progress = { status: 'failed', error: event.error }
        break
      case 'call.interrupted':
        progress = { status: 'failed', error: INTERRUPTED_ERROR }
        break
      case 'call.cancelled':
        progress = { status: 'cancelled', by: event.client }
        break
    }
  }
  return {
    taskId,
    callId: requested.callId,
    createdAt: task.time,
    lastUpdatedAt,
    tool: requested.tool,
    serverTool: requested.serverTool,
    progress: progress ?? { status: 'working', confirming },
  }
}
