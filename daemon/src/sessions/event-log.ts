// A session's append-only event file. Appends are group-committed: every event queued while a
// write is in flight goes out in the next single synced write (`O_DSYNC`, or a write and an
// fdatasync where the platform lacks it), and a caller's promise
// resolves only once its events are on disk. The file is open only while a shared HandlePool
// holds it, so thousands of sessions hold a bounded number of descriptors.

import { open, rename, stat } from 'node:fs/promises'
import { WRITES_SYNC, type HandlePool } from './handle-pool.js'
import { decodeRecord, encodeJson } from './record-codec.js'

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
    private readonly pool: HandlePool,
    private readonly path: string,
  ) {}

  /** Opens (creating if needed) and reads the file, cutting off a torn last line. */
  static async open<T>(
    path: string,
    pool: HandlePool,
  ): Promise<{ log: EventLog<T>; report: LoadReport<T> }> {
    const { text, size } = await pool.use(path, async (handle) => {
      const { size } = await handle.stat()
      const buffer = Buffer.alloc(size)
      let read = 0
      while (read < size) {
        const { bytesRead } = await handle.read(buffer, read, size - read, read)
        if (bytesRead === 0) break
        read += bytesRead
      }
      const text = buffer.subarray(0, read).toString('utf8')
      const end = text.lastIndexOf('\n') + 1
      const kept = Buffer.byteLength(text.slice(0, end))
      if (kept < read) {
        await handle.truncate(kept)
        await handle.datasync()
      }
      return { text, size: read }
    })
    const end = text.lastIndexOf('\n') + 1
    const kept = Buffer.byteLength(text.slice(0, end))
    const records: T[] = []
    let damaged: LoadReport<T>['damaged'] = null
    const lines = text.slice(0, end).split('\n')
    lines.pop()
    lines.forEach((line, index) => {
      const decoded = decodeRecord(line)
      if (decoded.ok) records.push(decoded.value as T)
      else damaged ??= { line: index + 1, reason: decoded.reason }
    })
    const log = new EventLog<T>(pool, path)
    log.bytes = kept
    return { log, report: { records, tornBytes: size - kept, damaged } }
  }

  /** Resolves once the records, given as their JSON text, are stored durably. */
  append(jsons: readonly string[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error('event log is closed'))
    return new Promise((resolve, reject) => {
      this.queue.push({ lines: jsons.map(encodeJson).join(''), resolve, reject })
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
        await next.write(records.map((record) => encodeJson(JSON.stringify(record))).join(''))
        await next.datasync()
      } finally {
        await next.close()
      }
      // A handle kept open on the old file would append to the replaced one.
      await this.pool.forget(this.path)
      await rename(temp, this.path)
      this.bytes = (await stat(this.path)).size
    } finally {
      this.writing = false
      void this.flush()
    }
  }

  async close(): Promise<void> {
    await this.drained()
    this.closed = true
    await this.pool.forget(this.path)
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
      await this.pool.use(this.path, async (handle) => {
        await handle.write(text, null, 'utf8')
        if (!WRITES_SYNC) await handle.datasync()
      })
      this.bytes += Buffer.byteLength(text)
      for (const pending of batch) pending.resolve()
    } catch (error) {
      for (const pending of batch) pending.reject(error)
    } finally {
      this.writing = false
      void this.flush()
    }
  }
}
