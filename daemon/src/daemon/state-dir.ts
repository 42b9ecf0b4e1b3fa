// Where the daemon keeps its runtime file, lock, log and remembered discovery results: a private
// directory (0700) that Ferry verifies rather than trusts.

import { chmod, mkdir, stat } from 'node:fs/promises'
import { isAbsolute, join } from 'node:path'
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

export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 })
  await chmod(dir, 0o700)
  const info = await stat(dir)
  if ((info.mode & 0o077) !== 0) {
    throw new FerryError(ErrorCode.Internal, `state directory ${dir} is not private (mode 0700)`)
  }
  if (typeof process.getuid === 'function' && info.uid !== process.getuid()) {
    throw new FerryError(ErrorCode.Internal, `state directory ${dir} belongs to another user`)
  }
}
