// A stable hash of the settings that shape a server's connection, so the daemon reconnects only when
// one of them changes (timeout, trust and tool filters deliberately excluded).

import { createHash } from 'node:crypto'
import type { ServerConfig } from './types.js'

export function fingerprint(config: ServerConfig): string {
  const shape =
    config.transport === 'stdio'
      ? { command: config.command, args: config.args, env: config.env, cwd: config.cwd }
      : {
          url: config.url,
          headers: config.headers,
          sseFallback: config.sseFallback,
          oauth: config.oauth,
        }
  const connection = {
    transport: config.transport,
    ...shape,
    versionNegotiation: config.versionNegotiation,
    discoveryTimeoutMs: config.discoveryTimeoutMs,
    // Whether roots are declared shapes the connection; which roots they are does not (a change
    // is announced to the server instead).
    noRoots: config.roots === false ? true : undefined,
  }
  return createHash('sha256').update(canonicalJson(connection)).digest('hex')
}

/** Hash of an entry as written in its file, before expansion: what a workspace approval names. */
export function rawFingerprint(raw: unknown): string {
  return createHash('sha256').update(canonicalJson(raw)).digest('hex')
}

/** JSON with object keys sorted at every depth and `undefined` members left out. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    const members = Object.keys(value)
      .sort()
      .flatMap((key) => {
        const member: unknown = (value as Record<string, unknown>)[key]
        return member === undefined ? [] : [`${JSON.stringify(key)}:${canonicalJson(member)}`]
      })
    return `{${members.join(',')}}`
  }
  return JSON.stringify(value ?? null)
}
