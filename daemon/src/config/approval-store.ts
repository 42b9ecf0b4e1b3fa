// The person's approvals of workspace entries, kept in the state directory as
// `workspace-approvals.json` (0600): absolute workspace path → server name → the digest of the entry
// as shown, with the workspace files it bound. Written whole through a temporary file and a rename,
// so a crash leaves either the old file or the new one.

import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { ErrorCode, FerryError, errorMessage } from '../errors.js'
import { writePrivateFile } from '../fs/private-file.js'
import type { WorkspaceEntry, WorkspaceFile } from '../protocol/workspace.js'
import { isPlainObject } from './format-path.js'

/**
 * One approval: the digest of the description the person was shown and the files it bound; or,
 * `legacy`, a hash of the entry as written alone, recorded before approvals bound files (a plain
 * string in the file, which an older Ferry also reads).
 */
export type StoredApproval = { digest: string; files: WorkspaceFile[] } | { legacy: string }

type Approvals = Record<string, Record<string, StoredApproval>>

export const APPROVALS_FILE = 'workspace-approvals.json'

export class ApprovalStore {
  private readonly path: string

  constructor(stateDir: string) {
    this.path = join(stateDir, APPROVALS_FILE)
  }

  /** The approvals of one workspace; none when the file does not exist yet. */
  async forWorkspace(workspace: string): Promise<Record<string, StoredApproval>> {
    return (await this.read())[workspace] ?? {}
  }

  /** Records `entries` as shown for `workspace`, replacing earlier approvals of their names. */
  async approve(workspace: string, entries: readonly WorkspaceEntry[]): Promise<void> {
    const all = await this.read()
    const approved = Object.fromEntries(
      entries.map((entry) => [entry.name, { digest: entry.digest, files: entry.files }]),
    )
    all[workspace] = { ...all[workspace], ...approved }
    const stored = Object.fromEntries(
      Object.entries(all).map(([path, names]) => [
        path,
        Object.fromEntries(
          Object.entries(names).map(([name, record]) => [
            name,
            'legacy' in record ? record.legacy : record,
          ]),
        ),
      ]),
    )
    await writePrivateFile(this.path, `${JSON.stringify(stored, null, 2)}\n`)
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
      const valid = Object.create(null) as Record<string, StoredApproval>
      for (const [name, record] of Object.entries(entries)) {
        const approval = parseRecord(record)
        if (approval !== undefined) valid[name] = approval
      }
      approvals[workspace] = valid
    }
    return approvals
  }
}

/** A record as stored; anything malformed approves nothing. */
function parseRecord(record: unknown): StoredApproval | undefined {
  if (typeof record === 'string') return { legacy: record }
  if (!isPlainObject(record) || typeof record.digest !== 'string') return undefined
  if (!Array.isArray(record.files)) return undefined
  const files: WorkspaceFile[] = []
  for (const file of record.files as unknown[]) {
    if (!isPlainObject(file) || typeof file.path !== 'string') return undefined
    const sha256 = typeof file.sha256 === 'string' ? file.sha256 : null
    const unreadable = typeof file.unreadable === 'string' ? file.unreadable : null
    files.push({ path: file.path, sha256, unreadable })
  }
  return { digest: record.digest, files }
}
