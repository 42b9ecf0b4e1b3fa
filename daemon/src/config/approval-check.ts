// Whether a stored approval still approves a workspace entry as it is described now, and if not,
// what changed, in words for the entry's status and the transcript.

import type { WorkspaceEntry, WorkspaceFile } from '../protocol/workspace.js'
import type { StoredApproval } from './approval-store.js'
import { approvalDigest } from './describe-entry.js'
import { rawFingerprint } from './fingerprint.js'

export type ApprovalCheck = { approved: true } | { approved: false; lapsed: string | null }

export function checkApproval(
  record: StoredApproval | undefined,
  entry: WorkspaceEntry,
  raw: unknown,
): ApprovalCheck {
  if (record === undefined) return { approved: false, lapsed: null }
  if ('legacy' in record) {
    if (record.legacy !== rawFingerprint(raw)) {
      return { approved: false, lapsed: 'its entry changed since you approved it' }
    }
    // That approval never covered files: it holds only where there is none to cover.
    if (entry.files.length === 0) return { approved: true }
    return {
      approved: false,
      lapsed: `it was approved before approvals covered the workspace files it runs (${paths(entry.files)})`,
    }
  }
  if (record.digest === entry.digest) return { approved: true }
  return { approved: false, lapsed: whatChanged(record, entry.files, raw) }
}

/** The entry as written, the files whose content or presence differs, or both. */
function whatChanged(
  record: { digest: string; files: readonly WorkspaceFile[] },
  now: readonly WorkspaceFile[],
  raw: unknown,
): string {
  const then = new Map(record.files.map((file) => [file.path, file.sha256]))
  const changed = now.filter((file) => !then.has(file.path) || then.get(file.path) !== file.sha256)
  const gone = record.files.filter((file) => !now.some((current) => current.path === file.path))
  const files = [...changed, ...gone]
  const entryChanged = approvalDigest(raw, record.files) !== record.digest
  const what = [...(entryChanged ? ['its entry'] : []), ...(files.length > 0 ? [paths(files)] : [])]
  return `${what.length > 0 ? what.join(' and ') : 'its entry'} changed since you approved it`
}

function paths(files: readonly WorkspaceFile[]): string {
  return files.map((file) => file.path).join(', ')
}
