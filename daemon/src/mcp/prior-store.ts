// Remembered `server/discover` results of auto-negotiated servers, one file per config
// fingerprint in the state directory, handed back as the prior on the next connect.

import { mkdir, readFile, rm, writeFile, rename } from 'node:fs/promises'
import { join } from 'node:path'
import type { DiscoverResult } from '@modelcontextprotocol/client'

export class PriorStore {
  constructor(private readonly dir: string) {}

  private file(fingerprint: string): string {
    return join(this.dir, `${fingerprint}.json`)
  }

  async get(fingerprint: string): Promise<DiscoverResult | undefined> {
    try {
      const saved = JSON.parse(await readFile(this.file(fingerprint), 'utf8')) as {
        discover?: DiscoverResult
      }
      return saved.discover
    } catch {
      return undefined
    }
  }

  async set(fingerprint: string, discover: DiscoverResult): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 })
    const target = this.file(fingerprint)
    const temp = `${target}.${process.pid}.tmp`
    await writeFile(temp, JSON.stringify({ savedAt: new Date().toISOString(), discover }), {
      mode: 0o600,
    })
    await rename(temp, target)
  }

  async forget(fingerprint: string): Promise<void> {
    await rm(this.file(fingerprint), { force: true })
  }
}
