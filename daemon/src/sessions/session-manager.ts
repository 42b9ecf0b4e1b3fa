// All sessions of the daemon, stored under `<stateDir>/sessions/<id>/`: load at start (marking
// calls the previous run left open as interrupted, and its open questions as withdrawn), create,
// rename, delete, find the default.

import { randomBytes } from 'node:crypto'
import { mkdir, readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { writePrivateFile } from '../fs/private-file.js'
import { ErrorCode, FerryError } from '../errors.js'
import type { Log } from '../log.js'
import type { SessionInfo, TranscriptEvent } from '../protocol/index.js'
import { EventLog } from './event-log.js'
import { HandlePool } from './handle-pool.js'
import { Session, type SessionHooks, type SessionMeta } from './session.js'

const SESSION_ID = /^[a-z0-9]{1,32}$/

export class SessionManager {
  private readonly sessions = new Map<string, Session>()
  /** Every session's event file is opened through this, so descriptors stay bounded. */
  private readonly files = new HandlePool()

  private constructor(
    private readonly dir: string,
    private readonly log: Log,
    private readonly hooks: Pick<SessionHooks, 'compactAboveBytes' | 'onLastAnswererGone'>,
  ) {}

  static async load(
    stateDir: string,
    log: Log,
    hooks: Pick<SessionHooks, 'compactAboveBytes' | 'onLastAnswererGone'>,
  ): Promise<SessionManager> {
    const manager = new SessionManager(join(stateDir, 'sessions'), log, hooks)
    await mkdir(manager.dir, { recursive: true, mode: 0o700 })
    for (const id of await readdir(manager.dir)) {
      if (!SESSION_ID.test(id)) continue
      try {
        await manager.open(id)
      } catch (error) {
        log({ kind: 'session.load_failed', session: id, error: String(error) })
      }
    }
    return manager
  }

  list(workspace?: string): SessionInfo[] {
    return [...this.sessions.values()]
      .filter((session) => workspace === undefined || session.meta.workspace === workspace)
      .map((session) => session.info())
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
  }

  get(id: string): Session {
    const session = this.sessions.get(id)
    if (session === undefined) {
      throw new FerryError(
        ErrorCode.NotFound,
        `no session "${id}"; run \`ferry sessions\` to list them`,
      )
    }
    return session
  }

  all(): Session[] {
    return [...this.sessions.values()]
  }

  /** The workspace's default session, created on first use. */
  async defaultFor(workspace: string): Promise<Session> {
    for (const session of this.sessions.values()) {
      if (session.meta.workspace === workspace && session.meta.isDefault) return session
    }
    return this.create(workspace, 'default', true)
  }

  async create(workspace: string, name: string, isDefault = false): Promise<Session> {
    const meta: SessionMeta = {
      id: randomBytes(5).toString('hex'),
      name,
      workspace,
      isDefault,
      createdAt: new Date().toISOString(),
    }
    await mkdir(join(this.dir, meta.id), { recursive: true, mode: 0o700 })
    await this.writeMeta(meta)
    return this.open(meta.id)
  }

  async rename(id: string, name: string): Promise<SessionInfo> {
    const session = this.get(id)
    session.meta = { ...session.meta, name }
    await this.writeMeta(session.meta)
    return session.info()
  }

  async compact(id: string): Promise<SessionInfo> {
    const session = this.get(id)
    const before = session.storedBytes
    await session.compact()
    await this.writeMeta(session.meta)
    this.log({ kind: 'session.compacted', session: id, before, after: session.storedBytes })
    return session.info()
  }

  async remove(id: string): Promise<void> {
    const session = this.get(id)
    this.sessions.delete(id)
    await session.close()
    await rm(join(this.dir, id), { recursive: true, force: true })
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((session) => session.close()))
    this.sessions.clear()
    await this.files.closeAll()
  }

  private async open(id: string): Promise<Session> {
    const meta = JSON.parse(await readFile(join(this.dir, id, 'meta.json'), 'utf8')) as SessionMeta
    const { log, report } = await EventLog.open<TranscriptEvent>(
      join(this.dir, id, 'events.jsonl'),
      this.files,
    )
    if (report.tornBytes > 0) {
      this.log({ kind: 'session.torn_record', session: id, bytes: report.tornBytes })
    }
    const damaged =
      report.damaged === null
        ? null
        : `record ${report.damaged.line} of events.jsonl is unreadable (${report.damaged.reason})`
    if (damaged !== null) this.log({ kind: 'session.damaged', session: id, damaged })
    const session = new Session(meta, log, report.records, damaged, {
      ...this.hooks,
      onCompacted: async (compacted) => {
        await this.writeMeta(compacted.meta)
        this.log({ kind: 'session.compacted', session: compacted.id, after: compacted.storedBytes })
      },
      onCompactionFailed: (failed, error) =>
        this.log({ kind: 'session.compaction_failed', session: failed.id, error: String(error) }),
    })
    this.sessions.set(id, session)
    if (damaged !== null) {
      await session.emit(
        { type: 'notice', level: 'error', message: `this transcript is damaged: ${damaged}` },
        null,
      )
    }
    for (const callId of session.unfinishedCalls()) {
      await session.emit({ type: 'call.interrupted', callId }, null)
    }
    for (const inputId of session.openInputs()) {
      const reason = 'Ferry stopped while it was open'
      await session.emit({ type: 'input.resolved', inputId, action: 'cancel', reason }, null)
    }
    return session
  }

  private async writeMeta(meta: SessionMeta): Promise<void> {
    // Whole and synced, through a temporary file of this process's own.
    await writePrivateFile(join(this.dir, meta.id, 'meta.json'), JSON.stringify(meta, null, 2))
  }
}
