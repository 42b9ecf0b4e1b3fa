// How a waiting workspace entry is shown at a terminal, by `ferry workspace`, `ferry workspace
// approve` and `ferry servers`. What the repository wrote is quoted as JSON, so a newline or quote
// in it cannot pass for a line of Ferry's own.

import type { WorkspaceEntry } from '../protocol/index.js'

const quote = (value: string): string => JSON.stringify(value)
const list = (values: readonly string[]): string => JSON.stringify(values)

/** The entry, one fact a line, ending with its digest. */
export function formatWaiting(entry: WorkspaceEntry): string[] {
  const replacing = entry.overrides === null ? '' : `, replacing your entry in ${entry.overrides}`
  const lines = [
    `${displayName(entry.name)} waits for your approval`,
    `  defined in ${entry.file} (this workspace)${replacing}`,
  ]
  if (entry.lapsed !== null) lines.push(`  approved before, but ${entry.lapsed}`)
  if (entry.transport !== null) lines.push(`  transport: ${entry.transport}`)
  if (entry.command !== null) lines.push(`  command: ${quote(entry.command)}`)
  if (entry.args.length > 0) lines.push(`  args: ${list(entry.args)}`)
  if (entry.cwd !== null) lines.push(`  cwd: ${quote(entry.cwd)}`)
  if (entry.url !== null) lines.push(`  url: ${quote(entry.url)}`)
  if (entry.env.length > 0) lines.push(`  env (values not shown): ${list(entry.env)}`)
  if (entry.headers.length > 0) lines.push(`  headers (values not shown): ${list(entry.headers)}`)
  if (entry.envFile !== null) lines.push(`  envFile: ${quote(entry.envFile)}`)
  if (entry.variables.length > 0) {
    lines.push(`  expands from the daemon's environment: ${list(entry.variables)}`)
  }
  for (const file of entry.files) {
    const content =
      file.sha256 === null
        ? `unreadable (${file.unreadable ?? 'unknown'})`
        : `sha256 ${file.sha256}`
    lines.push(`  runs workspace file ${quote(file.path)}: ${content}`)
  }
  lines.push(`  digest: ${entry.digest}`)
  return lines
}

/** The command that approves exactly this description. */
export function approveCommand(entry: WorkspaceEntry): string {
  return `ferry workspace approve ${shellWord(`${entry.name}@${entry.digest}`)}`
}

function displayName(name: string): string {
  return /^[A-Za-z0-9._-]+$/.test(name) ? name : quote(name)
}

function shellWord(word: string): string {
  return /^[A-Za-z0-9._@:+-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`
}
