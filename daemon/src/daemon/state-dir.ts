// Where the daemon keeps its runtime file, lock, log and remembered discovery results: a private
// directory (0700) of the user's that Ferry verifies rather than trusts, reached through no link
// another user planted.

import { chmod, lstat, mkdir, realpath } from 'node:fs/promises'
import { isAbsolute, join, parse, resolve, sep } from 'node:path'
import { ErrorCode, FerryError } from '../errors.js'

export function resolveStateDir(
  flag: string | undefined,
  env: Record<string, string | undefined>,
  homeDir: string,
): string {
  if (flag !== undefined && flag !== '') return flag
  if (env.FERRY_STATE_DIR) return env.FERRY_STATE_DIR
  // The XDG spec says to ignore a relative path here.
  const xdg = env.XDG_STATE_HOME
  const base = xdg && isAbsolute(xdg) ? xdg : join(homeDir, '.local', 'state')
  return join(base, 'ferry')
}

function refuse(dir: string, why: string): FerryError {
  return new FerryError(
    ErrorCode.Forbidden,
    `refusing the state directory ${dir}: ${why}; use a directory of your own ` +
      '(--state-dir or FERRY_STATE_DIR)',
  )
}

/**
 * Makes `dir` (and any missing parent) a private directory of the current user, following no
 * link that someone else could have planted: every existing component of the path may be a
 * symbolic link only if it belongs to the user or to root, each component Ferry creates must turn
 * out to be a directory of the user's, and the directory the path leads to must be the user's
 * before its mode is touched.
 */
export async function ensurePrivateDir(dir: string): Promise<void> {
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined
  const ours = (owner: number) => uid === undefined || owner === uid
  const absolute = resolve(dir)
  const { root } = parse(absolute)
  let current = root
  for (const part of absolute.slice(root.length).split(sep).filter(Boolean)) {
    current = join(current, part)
    let info = await lstat(current).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined
      throw refuse(dir, `cannot read ${current} (${error.code ?? error.message})`)
    })
    let created = false
    if (info === undefined) {
      await mkdir(current, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw refuse(dir, `cannot create ${current} (${error.code})`)
      })
      info = await lstat(current)
      created = true
    }
    if (info.isSymbolicLink()) {
      if (created || !(ours(info.uid) || info.uid === 0)) {
        throw refuse(dir, `${current} is a symbolic link owned by another user (uid ${info.uid})`)
      }
    } else if (!info.isDirectory()) {
      throw refuse(dir, `${current} is not a directory`)
    } else if (created && !ours(info.uid)) {
      throw refuse(dir, `${current} belongs to another user (uid ${info.uid})`)
    }
  }
  // Where the path leads, through the user's own links: checked before anything is changed there.
  const target = await realpath(absolute)
  const info = await lstat(target)
  if (!info.isDirectory()) throw refuse(dir, `${target} is not a directory`)
  if (!ours(info.uid)) {
    throw refuse(dir, `${target} belongs to another user (uid ${info.uid})`)
  }
  if ((info.mode & 0o777) !== 0o700) await chmod(target, 0o700)
  if (((await lstat(target)).mode & 0o077) !== 0) {
    throw new FerryError(ErrorCode.Internal, `state directory ${dir} is not private (mode 0700)`)
  }
}
