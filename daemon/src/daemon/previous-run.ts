// What a starting daemon takes over from the previous run's runtime file: its token, so that open
// WebShell tabs and printed links keep working, and its port, so that their origin stays the same.

import { readPreviousRuntimeFile } from './runtime-file.js'
import { isWellFormedToken } from './token.js'

export interface PreviousRun {
  /** Absent when there is no trustworthy record or its token is malformed. */
  token?: string
  /** Absent when there is no trustworthy record or it was bound to another host. */
  port?: number
}

function isPort(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 && value < 65536
}

/** Call with the state directory's lock held, so no other daemon is writing the record. */
export async function readPreviousRun(stateDir: string, host: string): Promise<PreviousRun> {
  const record = await readPreviousRuntimeFile(stateDir)
  if (record === undefined) return {}
  return {
    ...(isWellFormedToken(record.token) ? { token: record.token } : {}),
    ...(record.host === host && isPort(record.port) ? { port: record.port } : {}),
  }
}
