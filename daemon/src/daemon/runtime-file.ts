// The runtime file: how the CLI finds and authenticates to the running daemon. Mode 0600 inside
// the 0700 state directory, verified after every write. A clean shutdown keeps the file, marked
// stopped, so that the next start can take over its token and port.

import { constants } from 'node:fs'
import { open, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { ErrorCode, errorMessage, FerryError } from '../errors.js'
import { writePrivateFile } from '../fs/private-file.js'

export interface RuntimeInfo {
  pid: number
  port: number
  host: string
  url: string
  version: string
  token: string
  startedAt: string
  /** When the daemon shut down cleanly; null while it runs (or if it died without shutting down). */
  stoppedAt: string | null
}

export function runtimeFilePath(stateDir: string): string {
  return join(stateDir, 'daemon.json')
}

export async function writeRuntimeFile(stateDir: string, info: RuntimeInfo): Promise<void> {
  const target = runtimeFilePath(stateDir)
  try {
    await writePrivateFile(target, JSON.stringify(info, null, 2))
  } catch (error) {
    throw new FerryError(
      ErrorCode.Internal,
      `cannot write the runtime file ${target}: ${errorMessage(error)}`,
      { cause: error },
    )
  }
  const mode = (await stat(target)).mode & 0o777
  if (mode !== 0o600) {
    await rm(target, { force: true })
    throw new FerryError(ErrorCode.Internal, `runtime file ${target} has mode ${mode.toString(8)}`)
  }
}

function parseRecord(text: string): RuntimeInfo | undefined {
  try {
    const parsed: unknown = JSON.parse(text)
    return typeof parsed === 'object' && parsed !== null ? (parsed as RuntimeInfo) : undefined
  } catch {
    return undefined
  }
}

/** What is at the runtime file's path: nothing, a record Ferry can trust, or why it cannot. */
type Found = { record: RuntimeInfo | undefined } | { problem: string } | undefined

/**
 * Only a regular file of our own with mode exactly 0600 counts: anything else may have been
 * planted or exposed, and neither its address nor its token may be trusted.
 */
async function readPrivateRecord(stateDir: string): Promise<Found> {
  let handle
  try {
    // No following a symbolic link, and no blocking on a FIFO put in the file's place.
    handle = await open(
      runtimeFilePath(stateDir),
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    )
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return undefined
    return { problem: code === 'ELOOP' ? 'a symbolic link' : `unreadable (${code ?? 'error'})` }
  }
  try {
    // Checked on the open descriptor, so the file cannot be swapped between check and read.
    const info = await handle.stat()
    if (!info.isFile()) return { problem: 'not a regular file' }
    if (typeof process.getuid === 'function' && info.uid !== process.getuid()) {
      return { problem: `owned by another user (uid ${info.uid})` }
    }
    const mode = info.mode & 0o777
    if (mode !== 0o600) return { problem: `readable by others (mode ${mode.toString(8)}, not 600)` }
    return { record: parseRecord(await handle.readFile('utf8')) }
  } catch (error) {
    return { problem: `unreadable (${errorMessage(error)})` }
  } finally {
    await handle.close()
  }
}

/**
 * The record of the daemon that runs, or last ran without shutting down cleanly (callers check
 * its pid). A stopped daemon's record is only for the next start, so here it reads as absent. A
 * file Ferry cannot trust is refused, naming what is wrong with it.
 */
export async function readRuntimeFile(stateDir: string): Promise<RuntimeInfo | undefined> {
  const found = await readPrivateRecord(stateDir)
  if (found !== undefined && 'problem' in found) {
    throw new FerryError(
      ErrorCode.Forbidden,
      `refusing the runtime file ${runtimeFilePath(stateDir)}: it is ${found.problem}, and Ferry ` +
        'trusts only a regular file of yours with mode 600; remove it and run `ferry start`',
    )
  }
  const record = found?.record
  return record === undefined || typeof record.stoppedAt === 'string' ? undefined : record
}

/**
 * The previous run's record, stopped or not, for a daemon that is starting and holds the lock;
 * one it cannot trust reads as absent. The fields are still unchecked.
 */
export async function readPreviousRuntimeFile(
  stateDir: string,
): Promise<Partial<RuntimeInfo> | undefined> {
  const found = await readPrivateRecord(stateDir)
  return found !== undefined && 'record' in found ? found.record : undefined
}

/**
 * Marks the record stopped, keeping its token and port for the next start. Only the daemon that
 * wrote the record may do so: another one may own the state directory by now.
 */
export async function markRuntimeFileStopped(stateDir: string, pid: number): Promise<void> {
  const found = await readPrivateRecord(stateDir)
  const current = found !== undefined && 'record' in found ? found.record : undefined
  if (current?.pid !== pid) return
  try {
    await writeRuntimeFile(stateDir, { ...current, stoppedAt: new Date().toISOString() })
  } catch {
    // A record left claiming a live daemon would mislead every client; without it the next start
    // only loses the token and port it could have reused.
    await rm(runtimeFilePath(stateDir), { force: true })
  }
}
