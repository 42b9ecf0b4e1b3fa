// Describes a workspace entry as it would run, before anything of it is expanded, and computes the
// digest an approval binds to: the entry exactly as written, plus the content of the workspace
// files it names.

import { createHash } from 'node:crypto'
import type { WorkspaceEntry, WorkspaceFile } from '../protocol/workspace.js'
import { variablesIn } from './expand-vars.js'
import { canonicalJson } from './fingerprint.js'
import { isPlainObject } from './format-path.js'
import { redactUrl } from '../protocol/redact-url.js'
import { guessTransport } from './resolve-server.js'
import { workspaceFiles, type FileContext } from './workspace-files.js'

export interface DescribeInput extends FileContext {
  name: string
  raw: unknown
  /** The user file whose entry of the same name this one replaces. */
  overrides: string | undefined
}

export async function describeEntry(input: DescribeInput): Promise<WorkspaceEntry> {
  const { raw } = input
  const entry = isPlainObject(raw) ? raw : {}
  const text = (value: unknown): string | null => (typeof value === 'string' ? value : null)
  const names = (value: unknown): string[] => (isPlainObject(value) ? Object.keys(value) : [])
  const url = text(entry.httpUrl) ?? text(entry.url)
  const files = await workspaceFiles(raw, input)
  return {
    name: input.name,
    file: input.file,
    overrides: input.overrides ?? null,
    transport: guessTransport(raw),
    command: text(entry.command),
    // An entry not validated yet may hold anything; what is not a string shows as JSON.
    args: Array.isArray(entry.args)
      ? entry.args.map((arg: unknown) => (typeof arg === 'string' ? arg : JSON.stringify(arg)))
      : [],
    cwd: text(entry.cwd),
    url: url === null ? null : redactUrl(url),
    env: names(entry.env),
    headers: names(entry.headers),
    envFile: text(entry.envFile),
    variables: [...new Set(strings(raw).flatMap(variablesIn))],
    files,
    digest: approvalDigest(raw, files),
    lapsed: null,
  }
}

/** SHA-256 of the entry as written and of each named file's path and content hash. */
export function approvalDigest(raw: unknown, files: readonly WorkspaceFile[]): string {
  const bound = { approval: 2, entry: raw, files: files.map((file) => [file.path, file.sha256]) }
  return createHash('sha256').update(canonicalJson(bound)).digest('hex')
}

/** Every string value in `value`, at any depth, in order. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap(strings)
  if (isPlainObject(value)) return Object.values(value).flatMap(strings)
  return []
}
