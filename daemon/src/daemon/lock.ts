// One daemon per state directory: an exclusive lock file holding the owner's pid. A lock whose
// owner is gone is stale and taken over; a live owner is named in the refusal.

import { readFileSync } from 'node:fs'
import { open, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { ErrorCode, FerryError } from '../errors.js'
import { readRuntimeFile } from './runtime-file.js'

/**
 * True while `pid` runs. A zombie counts as gone: it has exited and waits only for its parent to
 * collect it, which for a daemon started in the background is init, and a container's init may do
 * that late or never.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  if (process.platform !== 'linux') return true
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The state follows the command name, which is in parentheses and may hold any character.
    return stat.charAt(stat.lastIndexOf(')') + 2) !== 'Z'
  } catch {
    return false
  }
}

export async function acquireLock(stateDir: string): Promise<() => Promise<void>> {
  const path = join(stateDir, 'daemon.lock')
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(path, 'wx', 0o600)
      await handle.writeFile(String(process.pid))
      await handle.close()
      return async () => {
        const owner = await readFile(path, 'utf8').catch(() => '')
        if (owner === String(process.pid)) await rm(path, { force: true })
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const owner = Number(await readFile(path, 'utf8').catch(() => 'NaN'))
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
      const runtime = await readRuntimeFile(stateDir).catch(() => undefined)
      const where = runtime?.pid === owner ? ` at ${runtime.url}` : ''
      throw new FerryError(
        ErrorCode.DaemonRunning,
        `Ferry is already running for ${stateDir} (pid ${owner}${where}); stop it with \`ferry stop\``,
      )
    }
    await rm(path, { force: true })
  }
  throw new FerryError(ErrorCode.DaemonRunning, `could not take the lock in ${stateDir}`)
}
