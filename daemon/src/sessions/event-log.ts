// A session's append-only event file. Appends are group-committed: every event queued while a
// write is in flight goes out in the next single write + fdatasync, and a caller's promise
// resolves only once its events are on disk.

import { open, rename, type FileHandle } from 'node:fs/promises'
import { decodeRecord, encodeRecord } from './record-codec.js'

export interface LoadReport<T> {
  records: T[]
  /** A last line without its newline (a write cut short), removed from the file. */
  tornBytes: number
  /** The first record that could not be read back, with the line number. */
  damaged: { line: number; reason: string } | null
}

interface Pending {
  lines: string
  resolve: () => void
  reject: (error: unknown) => void
}

export class EventLog<T> {
  private queue: Pending[] = []
  /** Bytes in the file, for size-triggered compaction. */
  bytes = 0
  private writing = false
  private closed = false

  private constructor(
    private handle: FileHandle,
    private readonly path: string,
  ) {}

  /** Opens (creating if needed) and reads the file, cutting off a torn last line. */
  static async open<T>(path: string): Promise<{ log: EventLog<T>; report: LoadReport<T> }> {
    const handle = await open(path, 'a+', 0o600)
    const text = (await handle.readFile()).toString('utf8')
    const end = text.lastIndexOf('\n') + 1
    const tornBytes = Buffer.byteLength(text.slice(end))
    if (tornBytes > 0) {
      await handle.truncate(Buffer.byteLength(text.slice(0, end)))
      await handle.datasync()
    }
    const records: T[] = []
    let damaged: LoadReport<T>['damaged'] = null
    const lines = text.slice(0, end).split('\n')
    lines.pop()
    lines.forEach((line, index) => {
      const decoded = decodeRecord(line)
      if (decoded.ok) records.push(decoded.value as T)
      else damaged ??= { line: index + 1, reason: decoded.reason }
    })
    const log = new EventLog<T>(handle, path)
    log.bytes = await log.size()
    return { log, report: { records, tornBytes, damaged } }
  }

  /** Resolves once `records` are stored durably. */
  append(records: readonly T[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error('event log is closed'))
    return new Promise((resolve, reject) => {
      this.queue.push({ lines: records.map(encodeRecord).join(''), resolve, reject })
      void this.flush()
    })
  }

  /**
   * Replaces the whole file (compaction). `produce` runs once every queued append is on disk and
   * before any later one is written, so it sees exactly the stored records. The new file is
   * written beside the old one, synced, then renamed over it: a crash leaves one or the other.
   */
  async rewrite(produce: () => readonly T[]): Promise<void> {
    await this.drained()
    this.writing = true
    try {
      const records = produce()
      const temp = `${this.path}.compacting`
      const next = await open(temp, 'w', 0o600)
      try {
        await next.write(records.map(encodeRecord).join(''), null, 'utf8')
        await next.datasync()
      } finally {
        await next.close()
      }
      await rename(temp, this.path)
      await this.handle.close()
      this.handle = await open(this.path, 'a+', 0o600)
      this.bytes = await this.size()
    } finally {
      this.writing = false
      void this.flush()
    }
  }

  private async size(): Promise<number> {
    return (await this.handle.stat()).size
  }

  async close(): Promise<void> {
    await this.drained()
    this.closed = true
    await this.handle.close()
  }

  private async drained(): Promise<void> {
    while (this.writing || this.queue.length > 0) {
      await new Promise((resolve) => setImmediate(resolve))
    }
  }

  private async flush(): Promise<void> {
    if (this.writing || this.queue.length === 0) return
    this.writing = true
    const batch = this.queue
    this.queue = []
    try {
      const text = batch.map((pending) => pending.lines).join('')
      await this.handle.write(text, null, 'utf8')
      this.bytes += Buffer.byteLength(text)
      await this.handle.datasync()
      for (const pending of batch) pending.resolve()
    } catch (error) {
      for (const pending of batch) pending.reject(error)
    } finally {
      this.writing = false
      void this.flush()
    }
  }
}
