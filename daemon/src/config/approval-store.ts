// The person's approvals of workspace entries, kept in the state directory as
// `workspace-approvals.json` (0600): absolute workspace path → server name → fingerprint of the
// entry as written. Written whole through a temporary file and a rename, so a crash leaves either
// the old file or the new one.

import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { ErrorCode, FerryError, errorMessage } from '../errors.js'
import { writePrivateFile } from '../daemon/private-file.js'
import { isPlainObject } from './format-path.js'

export type Approvals = Record<string, Record<string, string>>

export const APPROVALS_FILE = 'workspace-approvals.json'

export class ApprovalStore {
  private readonly path: string

  constructor(stateDir: string) {
    this.path = join(stateDir, APPROVALS_FILE)
  }

  /** The approvals of one workspace; none when the file does not exist yet. */
  async forWorkspace(workspace: string): Promise<Record<string, string>> {
    return (await this.read())[workspace] ?? {}
  }

  /** Records `entries` (name → fingerprint) for `workspace`, replacing earlier approvals of them. */
  async approve(workspace: string, entries: Record<string, string>): Promise<void> {
    const all = await this.read()
    all[workspace] = { ...all[workspace], ...entries }
    await writePrivateFile(this.path, `${JSON.stringify(all, null, 2)}\n`)
  }

  private async read(): Promise<Approvals> {
    let text: string
    try {
      text = await readFile(this.path, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {}
      throw new FerryError(ErrorCode.Internal, `cannot read ${this.path}: ${errorMessage(error)}`, {
        cause: error,
      })
    }
    // A damaged file approves nothing: every workspace entry waits again, which is safe.
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      return {}
    }
    const approvals: Approvals = Object.create(null) as Approvals
    if (!isPlainObject(parsed)) return approvals
    for (const [workspace, entries] of Object.entries(parsed)) {
      if (!isPlainObject(entries)) continue
      const valid: Record<string, string> = Object.create(null) as Record<string, string>
      for (const [name, fingerprint] of Object.entries(entries)) {
        if (typeof fingerprint === 'string') valid[name] = fingerprint
      }
      approvals[workspace] = valid
    }
    return approvals
  }
}
