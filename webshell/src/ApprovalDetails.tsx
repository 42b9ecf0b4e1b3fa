// A workspace server waiting for approval, shown as it would run: command, arguments, URL, the
// names of its variables and headers, the workspace files it runs with their hashes, and the digest
// the Approve button sends. Values the repository wrote show as text, never as markup.

import type { WorkspaceEntry } from '../../daemon/src/protocol/index.js'

function Row({ label, value, testid }: { label: string; value: string; testid: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd data-testid={testid}>
        <code>{value}</code>
      </dd>
    </>
  )
}

export function ApprovalDetails({ entry }: { entry: WorkspaceEntry }) {
  const list = (values: readonly string[]) => JSON.stringify(values)
  return (
    <dl class="approval" data-testid="approval" data-digest={entry.digest}>
      {entry.lapsed !== null && (
        <Row label="approved before, but" value={entry.lapsed} testid="approval-lapsed" />
      )}
      {entry.command !== null && (
        <Row label="command" value={entry.command} testid="approval-command" />
      )}
      {entry.args.length > 0 && (
        <Row label="args" value={list(entry.args)} testid="approval-args" />
      )}
      {entry.cwd !== null && <Row label="cwd" value={entry.cwd} testid="approval-cwd" />}
      {entry.url !== null && <Row label="url" value={entry.url} testid="approval-url" />}
      {entry.env.length > 0 && (
        <Row label="env (names only)" value={list(entry.env)} testid="approval-env" />
      )}
      {entry.headers.length > 0 && (
        <Row label="headers (names only)" value={list(entry.headers)} testid="approval-headers" />
      )}
      {entry.envFile !== null && (
        <Row label="envFile" value={entry.envFile} testid="approval-env-file" />
      )}
      {entry.variables.length > 0 && (
        <Row
          label="expands from the daemon's environment"
          value={list(entry.variables)}
          testid="approval-variables"
        />
      )}
      {entry.files.map((file) => (
        <Row
          key={file.path}
          label="runs workspace file"
          value={`${file.path} ${file.sha256 === null ? `unreadable (${file.unreadable ?? 'unknown'})` : `sha256 ${file.sha256}`}`}
          testid="approval-file"
        />
      ))}
      <Row label="digest" value={entry.digest} testid="approval-digest" />
    </dl>
  )
}
