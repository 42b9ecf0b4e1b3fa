// The gateway tokens `ferry mcp` holds for its clients: created through the admin API on first use,
// kept in `<stateDir>/gateway-client-tokens/<name>` (0600) and reused after. A token Ferry refuses
// is never replaced here, so a revocation holds until the person deletes that file.

import { lstat, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { ensurePrivateDir } from '../daemon/state-dir.js'
import { writePrivateFile } from '../fs/private-file.js'
import { ErrorCode, FerryError, errorMessage } from '../errors.js'
import { CLIENT_NAME_PATTERN, GATEWAY_TOKEN_PREFIX } from '../gateway/token-store.js'
import type { GatewayTokenCreateResponse } from '../protocol/index.js'
import { connectDaemon } from './daemon-client.js'

export const CLIENT_TOKENS_DIR = 'gateway-client-tokens'

/** How long a bridge whose token name was just taken waits for the bridge that took it to store it. */
const RACE_WAIT_MS = 5_000

export function clientTokenPath(stateDir: string, name: string): string {
  return join(stateDir, CLIENT_TOKENS_DIR, name)
}

export function checkClientName(name: string): void {
  // The name is also a file name: `.` and `..` would leave the token directory.
  if (!CLIENT_NAME_PATTERN.test(name) || /^\.+$/.test(name)) {
    throw new FerryError(
      ErrorCode.BadRequest,
      `--client "${name}" is not allowed: use 1 to 64 letters, digits, ".", "_" or "-", not dots alone`,
    )
  }
}

/** The stored token, or undefined when there is none; a file anyone else may read is refused. */
async function readStored(path: string): Promise<string | undefined> {
  let text: string
  try {
    const stats = await lstat(path)
    if (!stats.isFile() || (stats.mode & 0o077) !== 0) {
      throw new FerryError(
        ErrorCode.Forbidden,
        `refusing ${path}: it must be a regular file only you may read (mode 600); remove it and start the client again`,
      )
    }
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    if (error instanceof FerryError) throw error
    throw new FerryError(ErrorCode.Internal, `cannot read ${path}: ${errorMessage(error)}`, {
      cause: error,
    })
  }
  const token = text.trim()
  if (!token.startsWith(GATEWAY_TOKEN_PREFIX)) {
    throw new FerryError(
      ErrorCode.Forbidden,
      `${path} does not hold a gateway token; remove it and start the client again`,
    )
  }
  return token
}

/**
 * The token of client `name`: the stored one, else a new one created through the admin API of the
 * running daemon and stored. Returns whether it was created now.
 */
export async function clientToken(
  stateDir: string,
  name: string,
): Promise<{ token: string; created: boolean }> {
  const path = clientTokenPath(stateDir, name)
  const stored = await readStored(path)
  if (stored !== undefined) return { token: stored, created: false }
  const client = await connectDaemon(stateDir)
  try {
    const { token } = await client.post<GatewayTokenCreateResponse>('/gateway/tokens', { name })
    await ensurePrivateDir(join(stateDir, CLIENT_TOKENS_DIR))
    await writePrivateFile(path, `${token}\n`)
    return { token, created: true }
  } catch (error) {
    if (!(error instanceof FerryError) || error.code !== ErrorCode.Conflict) throw error
  }
  // Another `ferry mcp` of the same name (an era probe and its session, say) may have just made it.
  const deadline = Date.now() + RACE_WAIT_MS
  while (Date.now() < deadline) {
    const token = await readStored(path)
    if (token !== undefined) return { token, created: false }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new FerryError(
    ErrorCode.Conflict,
    `a gateway token named "${name}" exists, but ferry mcp does not hold it (Ferry keeps only its hash); ` +
      `run \`ferry gateway token revoke ${name}\` so that ferry mcp makes its own, or pass --client with another name`,
  )
}
