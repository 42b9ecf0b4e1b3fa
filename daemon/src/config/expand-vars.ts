// `$VAR`, `${VAR}`, `${VAR:-default}` and `${env:VAR}` expansion against an explicit environment,
// plus the editor placeholders other hosts' files use (`${workspaceFolder}`, `${userHome}`,
// `${input:id}`, …). `$$` is a literal `$`; any other `${…}` is an error, never passed on as written.

import { basename, sep } from 'node:path'

export type ExpandResult =
  | { ok: true; value: string }
  | { ok: false; variable: string }
  | { ok: false; placeholder: string; reason: 'unknown' | 'unanswered' | 'unterminated' }

export interface ExpandContext {
  /** `${workspaceFolder}`: the daemon's workspace directory. */
  workspaceFolder?: string
  /** `${userHome}`: the user's home directory. */
  userHome?: string
  /** `${input:id}` answers, themselves expanded; an id without one makes the expansion fail. */
  inputs?: Readonly<Record<string, string>>
}

const BARE_NAME = /^[A-Za-z_][A-Za-z0-9_]*/
const BRACED = /^(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-([\s\S]*))?$/
const INPUT = /^input:([^}]+)$/

export function expandVars(
  input: string,
  env: Record<string, string | undefined>,
  context: ExpandContext = {},
): ExpandResult {
  let out = ''
  let i = 0
  while (i < input.length) {
    const dollar = input.indexOf('$', i)
    if (dollar === -1) {
      out += input.slice(i)
      break
    }
    out += input.slice(i, dollar)
    const next = input[dollar + 1]
    if (next === '$') {
      out += '$'
      i = dollar + 2
      continue
    }
    if (next === '{') {
      const close = input.indexOf('}', dollar + 2)
      if (close === -1) return { ok: false, placeholder: '${', reason: 'unterminated' }
      const inner = input.slice(dollar + 2, close)
      const value = placeholder(inner, env, context)
      if (!value.ok) return value
      out += value.value
      i = close + 1
      continue
    }
    const name = BARE_NAME.exec(input.slice(dollar + 1))?.[0]
    if (name !== undefined) {
      const value = lookup(env, name)
      if (value === undefined) return { ok: false, variable: name }
      out += value
      i = dollar + 1 + name.length
      continue
    }
    // A `$` that starts no variable reference (`$5`, a trailing `$`) stays as written.
    out += '$'
    i = dollar + 1
  }
  return { ok: true, value: out }
}

function placeholder(
  inner: string,
  env: Record<string, string | undefined>,
  context: ExpandContext,
): ExpandResult {
  // Editor placeholders win over environment variables of the same name.
  if (inner === 'workspaceFolder' && context.workspaceFolder !== undefined) {
    return { ok: true, value: context.workspaceFolder }
  }
  if (inner === 'workspaceFolderBasename' && context.workspaceFolder !== undefined) {
    return { ok: true, value: basename(context.workspaceFolder) }
  }
  if (inner === 'pathSeparator' || inner === '/') return { ok: true, value: sep }
  if (inner === 'userHome' && context.userHome !== undefined) {
    return { ok: true, value: context.userHome }
  }
  const input = INPUT.exec(inner)?.[1]
  if (input !== undefined) {
    const answer = context.inputs !== undefined ? ownString(context.inputs, input) : undefined
    if (answer === undefined) return { ok: false, placeholder: input, reason: 'unanswered' }
    // An answer may name a variable (`"${GITHUB_TOKEN}"`), but not another input.
    return expandVars(answer, env, { ...context, inputs: {} })
  }
  const match = BRACED.exec(inner)
  const name = match?.[1]
  if (match === null || name === undefined) {
    return { ok: false, placeholder: `\${${inner}}`, reason: 'unknown' }
  }
  const fallback = match[2]
  const value = lookup(env, name)
  // Like the shell, `:-` also replaces a variable that is set but empty.
  if (fallback !== undefined && (value === undefined || value === '')) {
    return { ok: true, value: fallback }
  }
  if (value === undefined) return { ok: false, variable: name }
  return { ok: true, value }
}

function lookup(env: Record<string, string | undefined>, name: string): string | undefined {
  return ownString(env, name)
}

function ownString(map: Readonly<Record<string, unknown>>, key: string): string | undefined {
  // Own properties only, so `$constructor` never resolves to Object.prototype members.
  if (!Object.hasOwn(map, key)) return undefined
  const value = map[key]
  return typeof value === 'string' ? value : undefined
}

/**
 * The environment variables `input` would read, in order and without repeats, without reading any:
 * what a person is shown before a workspace entry may expand them. Editor placeholders and inputs
 * are not environment variables and are left out.
 */
export function variablesIn(input: string): string[] {
  const names: string[] = []
  for (let i = input.indexOf('$'); i !== -1; i = input.indexOf('$', i)) {
    const next = input[i + 1]
    if (next === '$') {
      i += 2
      continue
    }
    let name: string | undefined
    if (next === '{') {
      const close = input.indexOf('}', i + 2)
      if (close === -1) break
      const inner = input.slice(i + 2, close)
      name = PLACEHOLDERS.has(inner) ? undefined : BRACED.exec(inner)?.[1]
      i = close + 1
    } else {
      name = BARE_NAME.exec(input.slice(i + 1))?.[0]
      i += 1 + (name?.length ?? 0)
    }
    if (name !== undefined && !names.includes(name)) names.push(name)
  }
  return names
}

const PLACEHOLDERS: ReadonlySet<string> = new Set([
  'workspaceFolder',
  'workspaceFolderBasename',
  'pathSeparator',
  '/',
  'userHome',
])
