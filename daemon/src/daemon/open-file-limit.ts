// The daemon's soft limit on open files (Node.js raised it to the hard limit as it started), which
// sizes the bound on connections that have not shown a token.

import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { promisify } from 'node:util'

function parse(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  if (value.trim() === 'unlimited') return Number.POSITIVE_INFINITY
  const limit = Number.parseInt(value, 10)
  return Number.isSafeInteger(limit) && limit > 0 ? limit : undefined
}

/** Undefined when neither `/proc` nor a shell can tell. */
export async function openFileLimit(): Promise<number | undefined> {
  try {
    const limits = await readFile('/proc/self/limits', 'utf8')
    return parse(/^Max open files\s+(\S+)/m.exec(limits)?.[1])
  } catch {}
  // Without `/proc` (macOS): a child inherits the limit, and the shell reports it.
  try {
    const { stdout } = await promisify(execFile)('/bin/sh', ['-c', 'ulimit -n'], {
      env: {},
      timeout: 5_000,
    })
    return parse(stdout)
  } catch {
    return undefined
  }
}
