// Remembered verdicts of auto-negotiated servers, one file per config fingerprint (which holds a
// remote server's URL) in the state directory: a modern server's `server/discover` result, handed
// back as the prior on the next connect, or, for a remote server that did not answer the probe, that
// it speaks the 2025 protocol, for a day, so the next connect skips the probe's wait.

import { mkdir, readFile, rm, writeFile, rename } from 'node:fs/promises'
import { join } from 'node:path'
import type { DiscoverResult } from '@modelcontextprotocol/client'

/** How long a remembered legacy verdict holds before the server is probed again. */
export const LEGACY_VERDICT_MS = 24 * 60 * 60_000

interface Saved {
  savedAt?: string
  discover?: DiscoverResult
  /** ISO time until which the server is taken to speak only the 2025 protocol. */
  legacyUntil?: string
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
