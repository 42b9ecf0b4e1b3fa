// Decides one server's fate: disabled by policy or settings, waiting for the person's approval (a
// workspace entry), invalid with path-precise messages, or enabled with its config and fingerprint.

import { readFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { parseEnv } from 'node:util'
import { errorMessage } from '../errors.js'
import {
  buildServerConfig,
  describeExpandFailure,
  type BuildContext,
} from './build-server-config.js'
import { expandVars, type ExpandContext } from './expand-vars.js'
import { fingerprint } from './fingerprint.js'
import { formatIssue, formatPath, isPlainObject, unknownKeyWarnings } from './format-path.js'
import { matchesAny } from './matches-any.js'
import { oauthKeys, serverKeys, serverSchema } from './server-schema.js'
import type { ServerEntry, TransportKind } from './types.js'
import type { WorkspaceEntry } from '../protocol/workspace.js'

export interface ServerPolicy {
  /** Every present `mcp.allowed` list; a server must match each of them. */
  allowed: string[][]
  excluded: string[]
}

export interface ResolveInput {
  name: string
  raw: unknown
  file: string
  env: Record<string, string | undefined>
  placeholders: ExpandContext
  inputDescriptions: ReadonlyMap<string, string>
  /** The roots of a server whose entry names none: the known workspace, or false when none is. */
  workspaceRoots: string[] | false
  policy: ServerPolicy
  /** Set for an entry from the workspace file: it starts only once approved. */
  approval?: { description: WorkspaceEntry; approved: boolean }
}

export async function resolveServer(
  input: ResolveInput,
): Promise<{ entry: ServerEntry; warnings: string[] }> {
  const { name, raw } = input
  // Disabled servers are not validated or expanded: a server someone switched off (perhaps because
  // its token is not set here) should not show up as broken.
  const reason = disabledReason(name, raw, input.policy)
  if (reason !== undefined) {
    return {
      entry: { name, state: 'disabled', transport: guessTransport(raw), reason },
      warnings: [],
    }
  }
  // Nothing of a workspace entry is validated, expanded or read before it is approved: its `${VAR}`s
  // could carry the daemon's secrets to a program the person never agreed to run.
  if (input.approval !== undefined && !input.approval.approved) {
    const { description } = input.approval
    const overrides = description.overrides ?? undefined
    const replacing = overrides === undefined ? '' : `, replacing your entry in ${overrides}`
    const lapsed = description.lapsed === null ? '' : `${description.lapsed}; `
    const message =
      `defined in ${input.file} (this workspace)${replacing}; ${lapsed}` +
      `run \`ferry workspace approve ${name}\` to start it`
    return {
      entry: {
        name,
        state: 'awaiting_approval',
        transport: guessTransport(raw),
        file: input.file,
        overrides,
        description,
        message,
      },
      warnings: [],
    }
  }
  const warnings: string[] = []
  const invalid = (transport: TransportKind | null, errors: string[]) => ({
    entry: { name, state: 'invalid' as const, transport, error: errors.join('; ') },
    warnings,
  })
  if (name === '') return invalid(null, ['mcpServers: a server name must not be empty'])
  if (!isPlainObject(raw))
    return invalid(null, [`${formatPath(['mcpServers', name])}: expected an object`])

  warnings.push(...unknownKeyWarnings(raw, serverKeys, ['mcpServers', name]))
  if (isPlainObject(raw.oauth)) {
    warnings.push(...unknownKeyWarnings(raw.oauth, oauthKeys, ['mcpServers', name, 'oauth']))
  }
  const parsed = serverSchema.safeParse(raw)
  if (!parsed.success) {
    const errors = parsed.error.issues.map((issue) => formatIssue(['mcpServers', name], issue))
    return invalid(guessTransport(raw), errors)
  }
  const context: BuildContext = {
    name,
    file: input.file,
    env: input.env,
    placeholders: input.placeholders,
    inputDescriptions: input.inputDescriptions,
    workspaceRoots: input.workspaceRoots,
  }
  if (parsed.data.envFile !== undefined) {
    context.envFile = await readEnvFile(parsed.data.envFile, context)
  }
  const built = buildServerConfig(parsed.data, context)
  if (!built.ok) return invalid(built.transport ?? guessTransport(raw), built.errors)
  warnings.push(...built.warnings)
  const entry: ServerEntry = {
    name,
    state: 'enabled',
    config: built.config,
    fingerprint: fingerprint(built.config),
  }
  return { entry, warnings }
}

/** The variables of a dotenv file; a relative path resolves against the settings file's folder. */
async function readEnvFile(
  path: string,
  context: BuildContext,
): Promise<NonNullable<BuildContext['envFile']>> {
  const at = formatPath(['mcpServers', context.name, 'envFile'])
  const expanded = expandVars(path, context.env, context.placeholders)
  if (!expanded.ok) {
    return { ok: false, error: describeExpandFailure(expanded, at, context.inputDescriptions) }
  }
  const file = resolve(dirname(context.file), expanded.value)
  try {
    const values = parseEnv(await readFile(file, 'utf8'))
    return {
      ok: true,
      values: Object.fromEntries(
        Object.entries(values).filter((pair): pair is [string, string] => pair[1] !== undefined),
      ),
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const why = code === 'ENOENT' ? 'no such file' : errorMessage(error)
    return { ok: false, error: `${at}: cannot read ${file}: ${why}` }
  }
}

function disabledReason(name: string, raw: unknown, policy: ServerPolicy): string | undefined {
  const pattern = policy.excluded.find((candidate) => matchesAny(name, [candidate]))
  if (pattern !== undefined) return `excluded by mcp.excluded pattern "${pattern}"`
  if (policy.allowed.some((list) => !matchesAny(name, list))) return 'not in mcp.allowed'
  if (isPlainObject(raw) && raw.disabled === true) return 'disabled in settings'
  return undefined
}

/** Best-effort transport for entries that never got a full config, for display only. */
export function guessTransport(raw: unknown): TransportKind | null {
  if (!isPlainObject(raw)) return null
  const { type, transport, command, url, httpUrl } = raw
  if (transport === 'sse' || transport === 'streamable-http') return transport
  if (type === 'stdio' || type === 'sse' || type === 'streamable-http') return type
  if (type === 'http') return 'streamable-http'
  const present = [command, url, httpUrl].filter((value) => typeof value === 'string').length
  if (present !== 1) return null
  if (typeof command === 'string') return 'stdio'
  return 'streamable-http'
}
