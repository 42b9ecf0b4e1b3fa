// The daemon's one log sink: a JSON line per entry, tagged with `kind`. Callers never pass
// tokens, headers or message bodies.

import { appendFileSync } from 'node:fs'

export interface LogEntry {
  kind: string
  [field: string]: unknown
}

export type Log = (entry: LogEntry) => void

export function createFileLog(path: string): Log {
  return (entry) => {
    try {
      appendFileSync(path, `${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`, {
        mode: 0o600,
      })
    } catch {}
  }
}
