// The daemon's one log sink: a JSON line per entry, tagged with `kind`, in a file rotated at a size
// bound; and the line for something that can happen in floods, written at most once a minute.
// Callers never pass tokens, headers or message bodies; any URL in an entry is written redacted.

import { appendFileSync, renameSync, statSync } from 'node:fs'
import { redactUrls } from './protocol/redact-url.js'

export interface LogEntry {
  kind: string
  [field: string]: unknown
}

export type Log = (entry: LogEntry) => void

/** `daemon.log` past this moves to `daemon.log.1` (replacing it) and a new one starts. */
export const LOG_MAX_BYTES = 10 * 1024 * 1024
/** A flood of like events writes one line per this. */
export const FLOOD_LINE_INTERVAL_MS = 60_000

function sizeOf(path: string): number {
  try {
    return statSync(path).size
  } catch {
    return 0
  }
}

/**
 * Appends to `path` (created 0600). A line that would take the file past `maxBytes` first moves it
 * to `<path>.1`, which keeps its 0600 mode, so the log never holds more than about twice the bound.
 */
export function createFileLog(path: string, maxBytes = LOG_MAX_BYTES): Log {
  // Counted here rather than asked of the file on every line; a stranger's appends (a second
  // daemon refused by the lock logs why) only make a rotation come a little late.
  let size = sizeOf(path)
  return (entry) => {
    const line = `${JSON.stringify({ time: new Date().toISOString(), ...entry }, redacted)}\n`
    const bytes = Buffer.byteLength(line)
    try {
      if (size > 0 && size + bytes > maxBytes) {
        try {
          renameSync(path, `${path}.1`)
        } catch {}
        // 0 after the move; the file's own size if it could not be moved (or was removed).
        size = sizeOf(path)
      }
      appendFileSync(path, line, { mode: 0o600 })
      size += bytes
    } catch {}
  }
}

export interface FloodLine {
  /** One more occurrence: written at once if no line was written within the interval. */
  (): void
  /** Writes the occurrences not yet written, if any (at shutdown). */
  flush(): void
}

/**
 * The line for an event that may come by the thousand: the first occurrence is written at once, the
 * rest at most once per `intervalMs`, each line carrying `count` (occurrences since the line
 * before, itself included) and `total`. `now` is the clock, injectable so a minute need not pass.
 */
export function floodLine(
  log: Log,
  entry: LogEntry,
  options: { intervalMs?: number; now?: () => number } = {},
): FloodLine {
  const intervalMs = options.intervalMs ?? FLOOD_LINE_INTERVAL_MS
  const now = options.now ?? Date.now
  let total = 0
  let unwritten = 0
  let writtenAt: number | undefined
  const write = () => {
    log({ ...entry, count: unwritten, total })
    unwritten = 0
    writtenAt = now()
  }
  const occurred = () => {
    total++
    unwritten++
    if (writtenAt === undefined || now() - writtenAt >= intervalMs) write()
  }
  occurred.flush = () => {
    if (unwritten > 0) write()
  }
  return occurred
}

/** A `JSON.stringify` replacer: an error text or a server's URL may carry a secret in a URL. */
function redacted(_key: string, value: unknown): unknown {
  return typeof value === 'string' ? redactUrls(value) : value
}
