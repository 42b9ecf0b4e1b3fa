// The files inside the workspace that a workspace entry names — its command (as a path, or found on
// the PATH it runs with), its arguments (and the value of `--flag=value`) and its `envFile` — each
// with a SHA-256 of its content, so an approval covers what the entry runs, not only how it reads.

import { createHash } from 'node:crypto'
import { constants } from 'node:fs'
import { open, realpath, stat } from 'node:fs/promises'
import { delimiter, dirname, resolve, sep } from 'node:path'
import { errorMessage } from '../errors.js'
import type { WorkspaceFile } from '../protocol/workspace.js'
import { expandVars } from './expand-vars.js'
import { isPlainObject } from './format-path.js'

export interface FileContext {
  workspace: string
  /** The settings file: a relative `cwd` or `envFile` resolves against its folder. */
  file: string
  userHome: string
  /** The daemon's PATH, which a child searches unless its entry sets its own. */
  path: string | undefined
}

export async function workspaceFiles(raw: unknown, context: FileContext): Promise<WorkspaceFile[]> {
  if (!isPlainObject(raw)) return []
  // Only the editor placeholders: the daemon's variables are not read for an entry not approved.
  const plain = (value: unknown): string | undefined => {
    if (typeof value !== 'string') return undefined
    const expanded = expandVars(
      value,
      {},
      {
        workspaceFolder: context.workspace,
        userHome: context.userHome,
      },
    )
    return expanded.ok ? expanded.value : undefined
  }
  const settingsDir = dirname(context.file)
  const cwd = plain(raw.cwd)
  // Without a `cwd` a child runs where the daemon runs, the workspace.
  const runsIn = cwd === undefined ? context.workspace : resolve(settingsDir, cwd)
  const bases = [...new Set([runsIn, context.workspace])]
  const candidates: string[] = []
  const command = plain(raw.command)
  if (command !== undefined && command !== '') {
    if (command.includes('/')) candidates.push(...bases.map((base) => resolve(base, command)))
    else {
      const found = await onPath(command, searchPath(raw.env, context.path, plain), runsIn)
      if (found !== undefined) candidates.push(found)
    }
  }
  for (const arg of Array.isArray(raw.args) ? raw.args : []) {
    const value = plain(arg)
    if (value === undefined || value === '') continue
    const named = [value]
    const equals = value.indexOf('=')
    if (value.startsWith('-') && equals !== -1) named.push(value.slice(equals + 1))
    for (const path of named) candidates.push(...bases.map((base) => resolve(base, path)))
  }
  const envFile = plain(raw.envFile)
  if (envFile !== undefined && envFile !== '') candidates.push(resolve(settingsDir, envFile))

  const root = await realpath(context.workspace).catch(() => resolve(context.workspace))
  const inside = root.endsWith(sep) ? root : `${root}${sep}`
  const files = new Map<string, WorkspaceFile>()
  for (const candidate of candidates) {
    const real = await realpath(candidate).catch(() => undefined)
    if (real === undefined || !real.startsWith(inside) || files.has(real)) continue
    const file = await hashFile(real)
    if (file !== undefined) files.set(real, file)
  }
  return [...files.values()]
}

/** The directories a bare command is looked up in: the entry's own `PATH`, else the daemon's. */
function searchPath(
  env: unknown,
  daemonPath: string | undefined,
  plain: (value: unknown) => string | undefined,
): string[] {
  const daemon = (daemonPath ?? '').split(delimiter)
  const own = isPlainObject(env) && typeof env.PATH === 'string' ? env.PATH : undefined
  if (own === undefined) return daemon
  return own.split(delimiter).flatMap((part) => {
    if (part === '$PATH' || part === '${PATH}') return daemon
    const dir = plain(part)
    return dir === undefined ? [] : [dir]
  })
}

/** The first executable regular file named `command` on `dirs`, as a spawn would find it. */
async function onPath(command: string, dirs: string[], cwd: string): Promise<string | undefined> {
  for (const dir of dirs) {
    // An empty entry means the current directory, as in a shell.
    const path = resolve(cwd, dir === '' ? '.' : dir, command)
    const info = await stat(path).catch(() => undefined)
    if (info?.isFile() === true && (info.mode & 0o111) !== 0) return path
  }
  return undefined
}

/** Hashes a regular file; undefined for anything else (a directory, a device, a FIFO). */
async function hashFile(path: string): Promise<WorkspaceFile | undefined> {
  let handle: Awaited<ReturnType<typeof open>>
  try {
    // Non-blocking, so a FIFO swapped in after the check cannot hold the open.
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') return undefined
    return { path, sha256: null, unreadable: errorMessage(error) }
  }
  try {
    if (!(await handle.stat()).isFile()) return undefined
    const hash = createHash('sha256')
    for await (const chunk of handle.createReadStream({ autoClose: false })) {
      hash.update(chunk as Buffer)
    }
    return { path, sha256: hash.digest('hex'), unreadable: null }
  } catch (error) {
    return { path, sha256: null, unreadable: errorMessage(error) }
  } finally {
    await handle.close().catch(() => {})
  }
}
