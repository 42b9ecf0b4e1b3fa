// The runtime file: how the CLI finds and authenticates to the running daemon. Mode 0600 inside
// the 0700 state directory, verified after every write; removed on shutdown.

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

export async function readRuntimeFile(stateDir: string): Promise<RuntimeInfo | undefined> {
  try {
    return JSON.parse(await readFile(runtimeFilePath(stateDir), 'utf8')) as RuntimeInfo
  } catch {
    return undefined
  }
}

export async function removeRuntimeFile(stateDir: string, pid: number): Promise<void> {
  const current = await readRuntimeFile(stateDir)
  if (current === undefined || current.pid === pid) {
    await rm(runtimeFilePath(stateDir), { force: true })
  }
}
