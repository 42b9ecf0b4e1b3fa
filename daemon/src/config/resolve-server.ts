// Decides one server's fate: disabled by policy or settings, invalid with path-precise messages, or
// enabled with its validated config and fingerprint.

import { buildServerConfig } from './build-server-config.js'
import { fingerprint } from './fingerprint.js'
import { formatIssue, formatPath, isPlainObject, unknownKeyWarnings } from './format-path.js'
import { matchesAny } from './matches-any.js'
import { serverKeys, serverSchema } from './server-schema.js'
import type { ServerEntry, TransportKind } from './types.js'

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
  policy: ServerPolicy
}

export function resolveServer(input: ResolveInput): { entry: ServerEntry; warnings: string[] } {
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
  const warnings: string[] = []
  const invalid = (transport: TransportKind | null, errors: string[]) => ({
    entry: { name, state: 'invalid' as const, transport, error: errors.join('; ') },
    warnings,
  })
  if (name === '') return invalid(null, ['mcpServers: a server name must not be empty'])
  if (!isPlainObject(raw))
    return invalid(null, [`${formatPath(['mcpServers', name])}: expected an object`])

  warnings.push(...unknownKeyWarnings(raw, serverKeys, ['mcpServers', name]))
  const parsed = serverSchema.safeParse(raw)
  if (!parsed.success) {
    const errors = parsed.error.issues.map((issue) => formatIssue(['mcpServers', name], issue))
    return invalid(guessTransport(raw), errors)
  }
  const built = buildServerConfig(parsed.data, { name, file: input.file, env: input.env })
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

function disabledReason(name: string, raw: unknown, policy: ServerPolicy): string | undefined {
  const pattern = policy.excluded.find((candidate) => matchesAny(name, [candidate]))
  if (pattern !== undefined) return `excluded by mcp.excluded pattern "${pattern}"`
  if (policy.allowed.some((list) => !matchesAny(name, list))) return 'not in mcp.allowed'
  if (isPlainObject(raw) && raw.disabled === true) return 'disabled in settings'
  return undefined
}

/** Best-effort transport for entries that never got a full config, for display only. */
function guessTransport(raw: unknown): TransportKind | null {
  if (!isPlainObject(raw)) return null
  const { type, transport, command, url, httpUrl } = raw
  if (transport === 'sse' || transport === 'streamable-http') return transport
  if (type === 'stdio' || type === 'sse' || type === 'streamable-http') return type
  if (type === 'http') return 'streamable-http'
  const present = [command, url, httpUrl].filter((value) => typeof value === 'string').length
  if (present !== 1) return null
  if (typeof command === 'string') return 'stdio'
  return typeof httpUrl === 'string' ? 'streamable-http' : 'sse'
}
