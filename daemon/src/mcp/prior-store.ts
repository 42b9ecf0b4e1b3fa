// Remembered verdicts of auto-negotiated servers, one file per config fingerprint (which holds a
// remote server's URL) in the state directory: a modern server's `server/discover` result, handed
// back as the prior on the next connect, or, for a remote server that did not answer the probe, that
// it speaks the 2025 protocol, for a day, so the next connect skips the probe's wait. A connect made
// with a remembered result asks the server again over its own connection, and a server that says
// other things of itself now is probed afresh.

import { mkdir, readFile, rm, writeFile, rename } from 'node:fs/promises'
import { join } from 'node:path'
import type { Client, DiscoverResult } from '@modelcontextprotocol/client'

/** How long a remembered legacy verdict holds before the server is probed again. */
export const LEGACY_VERDICT_MS = 24 * 60 * 60_000

interface Saved {
  savedAt?: string
  discover?: DiscoverResult
  /** ISO time until which the server is taken to speak only the 2025 protocol. */
  legacyUntil?: string
}

/** What the server says of itself now, asked over a connection made with a remembered result. */
export async function rediscover(client: Client): Promise<DiscoverResult> {
  return (await client.request({ method: 'server/discover' })) as DiscoverResult
}

/**
 * True when two `server/discover` results say the same of the server: its capabilities, versions,
 * instructions and `serverInfo`, not how long to cache the answer.
 */
export function sameDiscover(remembered: DiscoverResult, now: DiscoverResult): boolean {
  return stableJson(described(remembered)) === stableJson(described(now))
}

function described(result: DiscoverResult): unknown {
  const record = result as Record<string, unknown>
  const meta = record._meta as Record<string, unknown> | undefined
  return {
    capabilities: record.capabilities,
    supportedVersions: record.supportedVersions,
    instructions: record.instructions,
    serverInfo: meta?.['io.modelcontextprotocol/serverInfo'] ?? record.serverInfo,
  }
}

function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([x], [y]) => (x < y ? -1 : 1)))
      : inner,
  )
}

export class PriorStore {
  constructor(
    private readonly dir: string,
    private readonly now: () => number = Date.now,
  ) {}

  private file(fingerprint: string): string {
    return join(this.dir, `${fingerprint}.json`)
  }

  private async read(fingerprint: string): Promise<Saved> {
    try {
      return JSON.parse(await readFile(this.file(fingerprint), 'utf8')) as Saved
    } catch {
      return {}
    }
  }

  async get(fingerprint: string): Promise<DiscoverResult | undefined> {
    return (await this.read(fingerprint)).discover
  }

  /** True while a remembered legacy verdict holds. */
  async isLegacy(fingerprint: string): Promise<boolean> {
    const until = (await this.read(fingerprint)).legacyUntil
    return until !== undefined && Date.parse(until) > this.now()
  }

  async set(fingerprint: string, discover: DiscoverResult): Promise<void> {
    await this.write(fingerprint, { discover })
  }

  async setLegacy(fingerprint: string): Promise<void> {
    await this.write(fingerprint, {
      legacyUntil: new Date(this.now() + LEGACY_VERDICT_MS).toISOString(),
    })
  }

  async forget(fingerprint: string): Promise<void> {
    await rm(this.file(fingerprint), { force: true })
  }

  private async write(fingerprint: string, saved: Saved): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 })
    const target = this.file(fingerprint)
    const temp = `${target}.${process.pid}.tmp`
    await writeFile(
      temp,
      JSON.stringify({ savedAt: new Date(this.now()).toISOString(), ...saved }),
      {
        mode: 0o600,
      },
    )
    await rename(temp, target)
  }
}
