// The runtime file: how the CLI finds and authenticates to the running daemon. Mode 0600 inside
// the 0700 state directory, verified after every write. A clean shutdown keeps the file, marked
// stopped, so that the next start can take over its token and port.

import { constants } from 'node:fs'
import { open, readFile, rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { ErrorCode, FerryError } from '../errors.js'

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
  const temp = `${target}.${process.pid}.tmp`
  await rm(temp, { force: true })
  const handle = await open(temp, 'wx', 0o600)
  try {
    await handle.writeFile(JSON.stringify(info, null, 2))
    await handle.sync()
  } finally {
    await handle.close()
  }
  await rename(temp, target)
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

async function readRecord(stateDir: string): Promise<RuntimeInfo | undefined> {
  const text = await readFile(runtimeFilePath(stateDir), 'utf8').catch(() => undefined)
  return text === undefined ? undefined : parseRecord(text)
}

/**
 * The record of the daemon that runs, or last ran without shutting down cleanly (callers check
 * its pid). A stopped daemon's record is only for the next start, so here it reads as absent.
 */
export async function readRuntimeFile(stateDir: string): Promise<RuntimeInfo | undefined> {
  const record = await readRecord(stateDir)
  return record === undefined || typeof record.stoppedAt === 'string' ? undefined : record
}

/**
 * The previous run's record, stopped or not, for a daemon that is starting and holds the lock.
 * Only a regular file of our own with mode exactly 0600 counts: anything else may have been
 * planted or exposed, and its token must not be trusted. The fields are still unchecked.
 */
export async function readPreviousRuntimeFile(
  stateDir: string,
): Promise<Partial<RuntimeInfo> | undefined> {
  let handle
  try {
    // No following a symbolic link, and no blocking on a FIFO put in the file's place.
    handle = await open(
      runtimeFilePath(stateDir),
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    )
  } catch {
    return undefined
  }
  try {
    // Checked on the open descriptor, so the file cannot be swapped between check and read.
    const info = await handle.stat()
    if (!info.isFile() || (info.mode & 0o777) !== 0o600) return undefined
    if (typeof process.getuid === 'function' && info.uid !== process.getuid()) return undefined
    return parseRecord(await handle.readFile('utf8'))
  } catch {
    return undefined
  } finally {
    await handle.close()
  }
}

/**
 * Marks the record stopped, keeping its token and port for the next start. Only the daemon that
 * wrote the record may do so: another one may own the state directory by now.
 */
export async function markRuntimeFileStopped(stateDir: string, pid: number): Promise<void> {
  const current = await readRecord(stateDir)
  if (current?.pid !== pid) return
  try {
    await writeRuntimeFile(stateDir, { ...current, stoppedAt: new Date().toISOString() })
  } catch {
    // A record left claiming a live daemon would mislead every client; without it the next start
    // only loses the token and port it could have reused.
    await rm(runtimeFilePath(stateDir), { force: true })
  }
}
