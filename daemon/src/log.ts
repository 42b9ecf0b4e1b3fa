// The daemon's one log sink: a JSON line per entry, tagged with `kind`. Callers never pass
// tokens, headers or message bodies; any URL in an entry is written redacted.

import { appendFileSync } from 'node:fs'
import { redactUrls } from './protocol/redact-url.js'

export interface LogEntry {
  kind: string
  [field: string]: unknown
}

export type Log = (entry: LogEntry) => void

export function createFileLog(path: string): Log {
  return (entry) => {
    try {
      const line = JSON.stringify({ time: new Date().toISOString(), ...entry }, redacted)
      appendFileSync(path, `${line}\n`, { mode: 0o600 })
    } catch {}
  }
}

/** A `JSON.stringify` replacer: an error text or a server's URL may carry a secret in a URL. */
function redacted(_key: string, value: unknown): unknown {
  return typeof value === 'string' ? redactUrls(value) : value
}
