// Where the daemon keeps its runtime file, lock, log and remembered discovery results: a private
// directory (0700) of the user's that Ferry verifies rather than trusts, reached through no link
// another user planted.

import type { Stats } from 'node:fs'
import { chmod, lstat, mkdir, readFile, realpath } from 'node:fs/promises'
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
 * before its mode is touched. No directory above it, on the path as written or where a link
 * leads, may be another user's or writable by every user without the sticky bit: whoever
 * controls a parent can swap the state directory for one of their own.
 */
export async function ensurePrivateDir(dir: string): Promise<void> {
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined
  const ours = (owner: number) => uid === undefined || owner === uid
  const absolute = resolve(dir)
  const { root } = parse(absolute)
  const parts = absolute.slice(root.length).split(sep).filter(Boolean)
  const checkParent = async (path: string, info: Stats) => {
    const why = await parentProblem(info, ours)
    if (why !== undefined) throw refuse(dir, `its parent ${path} ${why}`)
  }
  await checkParent(root, await lstat(root))
  let current = root
  for (const [index, part] of parts.entries()) {
    current = join(current, part)
    const last = index === parts.length - 1
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
        throw refuse(
          dir,
          `${current} is a symbolic link owned by another user (${await owner(info.uid)})`,
        )
      }
      // What follows lives where the link leads: every directory on that way is a parent too.
      const target = await realpath(current).catch((error: NodeJS.ErrnoException) => {
        throw refuse(dir, `cannot follow the link ${current} (${error.code ?? error.message})`)
      })
      for (const parent of ancestors(target, !last)) await checkParent(parent, await lstat(parent))
    } else if (!info.isDirectory()) {
      throw refuse(dir, `${current} is not a directory`)
    } else if (created && !ours(info.uid)) {
      throw refuse(dir, `${current} belongs to another user (${await owner(info.uid)})`)
    } else if (!last) {
      await checkParent(current, info)
    }
  }
  // Where the path leads, through the user's own links: checked before anything is changed there.
  const target = await realpath(absolute)
  const info = await lstat(target)
  if (!info.isDirectory()) throw refuse(dir, `${target} is not a directory`)
  if (!ours(info.uid)) {
    throw refuse(dir, `${target} belongs to another user (${await owner(info.uid)})`)
  }
  if ((info.mode & 0o777) !== 0o700) await chmod(target, 0o700)
  if (((await lstat(target)).mode & 0o077) !== 0) {
    throw new FerryError(ErrorCode.Internal, `state directory ${dir} is not private (mode 0700)`)
  }
}

/** Why a directory above the state directory lets someone else replace what is in it. */
async function parentProblem(
  info: Stats,
  ours: (owner: number) => boolean,
): Promise<string | undefined> {
  if (!ours(info.uid) && info.uid !== 0) {
    return `belongs to another user (${await owner(info.uid)}), who could replace what is in it`
  }
  if ((info.mode & 0o002) !== 0 && (info.mode & 0o1000) === 0) {
    const mode = (info.mode & 0o7777).toString(8)
    return `is writable by every user (mode ${mode}) without the sticky bit, so anyone could replace what is in it`
  }
  return undefined
}

/** `path`'s directories from the root down, `path` itself included when `self` is true. */
function ancestors(path: string, self: boolean): string[] {
  const { root } = parse(path)
  const parts = path.slice(root.length).split(sep).filter(Boolean)
  if (!self) parts.pop()
  return parts.reduce((paths, part) => [...paths, join(paths.at(-1) ?? root, part)], [root])
}

/** `uid 1001`, with the account's name in front when the system's user list has one. */
async function owner(uid: number): Promise<string> {
  const passwd = await readFile('/etc/passwd', 'utf8').catch(() => '')
  const name = passwd
    .split('\n')
    .map((line) => line.split(':'))
    .find((fields) => fields[2] === String(uid))?.[0]
  return name === undefined || name === '' ? `uid ${uid}` : `${name}, uid ${uid}`
}
