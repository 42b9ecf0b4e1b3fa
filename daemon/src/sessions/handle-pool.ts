// The open event files of all sessions, at most a fixed number at a time: a file is opened when a
// session reads or appends, kept open while it stays recently used, and closed to make room.

import { constants } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'

/**
 * Whether a write to a pooled file is durable once it returns: with `O_DSYNC` each write is a
 * write and an `fdatasync` in one call (one trip to the thread pool instead of two). Where the
 * platform has no `O_DSYNC`, the writer syncs after writing.
 */
export const WRITES_SYNC = constants.O_DSYNC !== undefined

/** Read, append, create; every write synced where the platform can. */
const FLAGS = constants.O_RDWR | constants.O_CREAT | constants.O_APPEND | (constants.O_DSYNC ?? 0)

/** Event files held open at once, however many sessions the daemon has. */
export const MAX_OPEN_EVENT_FILES = 64

export class HandlePool {
  /** Handles not in use, least recently used first. */
  private readonly idle = new Map<string, FileHandle>()
  private leased = 0
  private readonly waiting: Array<() => void> = []

  constructor(readonly limit = MAX_OPEN_EVENT_FILES) {}

  /** Runs `work` with the file at `path` open for reading and appending (created if needed). */
  async use<T>(path: string, work: (handle: FileHandle) => Promise<T>): Promise<T> {
    let handle = this.idle.get(path)
    if (handle !== undefined) {
      this.idle.delete(path)
      this.leased++
    } else {
      while (this.leased >= this.limit) {
        await new Promise<void>((resolve) => this.waiting.push(resolve))
      }
      this.leased++
      try {
        const oldest = this.idle.keys().next()
        if (!oldest.done && this.leased + this.idle.size > this.limit) {
          const evicted = this.idle.get(oldest.value)
          this.idle.delete(oldest.value)
          await evicted?.close()
        }
        handle = await open(path, FLAGS, 0o600)
      } catch (error) {
        this.release()
        throw error
      }
    }
    let healthy = false
    try {
      const value = await work(handle)
      healthy = true
      return value
    } finally {
      // A handle that saw an error is not trusted again.
      if (healthy) this.idle.set(path, handle)
      else await handle.close().catch(() => {})
      this.release()
    }
  }

  /** Closes the idle handle of `path` (before the file is replaced or removed). */
  async forget(path: string): Promise<void> {
    const handle = this.idle.get(path)
    if (handle === undefined) return
    this.idle.delete(path)
    await handle.close()
  }

  async closeAll(): Promise<void> {
    const handles = [...this.idle.values()]
    this.idle.clear()
    await Promise.all(handles.map((handle) => handle.close().catch(() => {})))
  }

  /** Handles open now, in use or idle. */
  get openCount(): number {
    return this.leased + this.idle.size
  }

  private release(): void {
    this.leased--
    this.waiting.shift()?.()
  }
}
