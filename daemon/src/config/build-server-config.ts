// Turns one type-checked `mcpServers` entry into a ServerConfig: picks the transport, applies
// defaults and clamps, expands `$VAR`s and placeholders, checks URLs, and resolves a relative `cwd`.

import { dirname, resolve } from 'node:path'
import { redactUrl } from '../protocol/redact-url.js'
import {
  DEFAULT_APP_RESOURCE_TIMEOUT_MS,
  DEFAULT_LOG_LEVEL,
  DEFAULT_REMOTE_DISCOVERY_MS,
  DEFAULT_STDIO_DISCOVERY_MS,
  DEFAULT_TOOL_TIMEOUT_MS,
  MAX_DISCOVERY_MS,
  MIN_DISCOVERY_MS,
} from './defaults.js'
import { expandVars, type ExpandContext, type ExpandResult } from './expand-vars.js'
import { formatPath, type PathSegment } from './format-path.js'
import type { RawServer } from './server-schema.js'
import type { OAuthSettings, ServerConfig, TransportKind } from './types.js'

export interface BuildContext {
  name: string
  /** The settings file that defined the entry; a relative `cwd` resolves against its directory. */
  file: string
  env: Record<string, string | undefined>
  placeholders: ExpandContext
  /** VS Code input descriptions by id, to name an unanswered `${input:id}`. */
  inputDescriptions: ReadonlyMap<string, string>
  /** The roots of an entry that names none: the known workspace, or false when none is known. */
  workspaceRoots: string[] | false
  /** The variables of the entry's `envFile`, read by the caller; absent without one. */
  envFile?: { ok: true; values: Record<string, string> } | { ok: false; error: string }
}

export type BuildResult =
  | { ok: true; config: ServerConfig; warnings: string[] }
  | { ok: false; transport: TransportKind | null; errors: string[] }

const TYPE_TO_TRANSPORT = {
  stdio: 'stdio',
  http: 'streamable-http',
  'streamable-http': 'streamable-http',
  sse: 'sse',
} as const satisfies Record<NonNullable<RawServer['type']>, TransportKind>

export function buildServerConfig(raw: RawServer, context: BuildContext): BuildResult {
  const at = (...segments: PathSegment[]): string =>
    formatPath(['mcpServers', context.name, ...segments])
  const picked = pickTransport(raw, at)
  if (!picked.ok) return { ok: false, transport: null, errors: [picked.error] }
  const transport = picked.transport
  const versionNegotiation = raw.versionNegotiation ?? 'legacy'
  if (transport === 'sse' && versionNegotiation === 'auto') {
    const error =
      `${at('versionNegotiation')}: "auto" needs Streamable HTTP; an SSE server speaks only the ` +
      '2025 protocol, so use "legacy" (or "url" / "httpUrl" without "type": "sse")'
    return { ok: false, transport, errors: [error] }
  }

  const warnings = inapplicableFields(raw, transport).map(
    (key) =>
      `${at(key)}: only applies to ${transport === 'stdio' ? 'remote' : 'stdio'} servers, ignored`,
  )
  const errors: string[] = []
  const expand = (value: string, path: string): string => {
    const result = expandVars(value, context.env, context.placeholders)
    if (result.ok) return result.value
    errors.push(describeExpandFailure(result, path, context.inputDescriptions))
    return ''
  }
  const expandMap = (map: Record<string, string> | undefined, field: string) =>
    Object.fromEntries(
      Object.entries(map ?? {}).map(([key, value]) => [key, expand(value, at(field, key))]),
    )

  const base = {
    name: context.name,
    timeout: raw.timeout ?? DEFAULT_TOOL_TIMEOUT_MS,
    discoveryTimeoutMs: discoveryTimeout(raw.discoveryTimeoutMs, transport, at, warnings),
    appResourceTimeoutMs: raw.appResourceTimeoutMs ?? DEFAULT_APP_RESOURCE_TIMEOUT_MS,
    versionNegotiation,
    logLevel: raw.logLevel ?? DEFAULT_LOG_LEVEL,
    trust: raw.trust ?? false,
    includeTools: raw.includeTools,
    excludeTools: raw.excludeTools,
    roots: rootsOf(raw.roots, context, expand, at),
  }

  let config: ServerConfig
  if (transport === 'stdio') {
    const command = expand(raw.command ?? '', at('command'))
    const args = (raw.args ?? []).map((arg, index) => expand(arg, at('args', index)))
    if (context.envFile?.ok === false) errors.push(context.envFile.error)
    const fromFile = context.envFile?.ok === true ? context.envFile.values : {}
    const env = { ...fromFile, ...expandMap(raw.env, 'env') }
    const cwd = raw.cwd === undefined ? undefined : expand(raw.cwd, at('cwd'))
    if (errors.length === 0 && command === '')
      errors.push(`${at('command')}: expands to an empty string`)
    const resolvedCwd = cwd === undefined ? undefined : resolve(dirname(context.file), cwd)
    config = { ...base, transport, command, args, env, cwd: resolvedCwd }
  } else {
    const field = raw.httpUrl !== undefined ? 'httpUrl' : 'url'
    const url = expand(raw.httpUrl ?? raw.url ?? '', at(field))
    const headers = expandMap(raw.headers, 'headers')
    // The value is left out of the message: after expansion it may hold a token.
    if (errors.length === 0 && !isHttpUrl(url)) errors.push(`${at(field)}: expected an http(s) URL`)
    // fetch refuses a URL with credentials in it, so such a server could never connect.
    else if (errors.length === 0 && hasUserinfo(url)) {
      errors.push(
        `${at(field)}: ${redactUrl(url)} has a user name or password in it, which Ferry cannot send; put the credentials in "headers" instead, e.g. "Authorization": "Basic …"`,
      )
    }
    // Cursor and Claude Code treat a bare `url` as Streamable HTTP that may fall back to SSE.
    const sseFallback = transport === 'streamable-http' && picked.bareUrl
    const oauth = oauthOf(raw.oauth, expand, at, errors)
    config = { ...base, transport, url, headers, sseFallback, oauth }
  }
  if (errors.length > 0) return { ok: false, transport, errors }
  return { ok: true, config, warnings }
}

type Picked =
  | { ok: true; transport: TransportKind; bareUrl: boolean }
  | { ok: false; error: string }

function pickTransport(raw: RawServer, at: (...segments: PathSegment[]) => string): Picked {
  const sources = (['command', 'url', 'httpUrl'] as const).filter((key) => raw[key] !== undefined)
  const [source, ...others] = sources
  if (source === undefined) {
    return { ok: false, error: `${at()}: needs "command" (stdio) or "url" / "httpUrl" (remote)` }
  }
  if (others.length > 0) {
    const both = sources.map((key) => `"${key}"`).join(' and ')
    return { ok: false, error: `${at()}: has both ${both}; set only one of them` }
  }
  const fromType = raw.type === undefined ? undefined : TYPE_TO_TRANSPORT[raw.type]
  if (raw.transport !== undefined && fromType !== undefined && raw.transport !== fromType) {
    const error = `${at('transport')}: "${raw.transport}" conflicts with type "${raw.type}"`
    return { ok: false, error }
  }
  const requested = raw.transport ?? fromType
  const field = raw.transport !== undefined ? 'transport' : 'type'
  const value = raw.transport ?? raw.type
  if (source === 'command') {
    if (requested === undefined || requested === 'stdio') {
      return { ok: true, transport: 'stdio', bareUrl: false }
    }
    return { ok: false, error: `${at(field)}: "${value}" needs "url" or "httpUrl", not "command"` }
  }
  if (requested === 'stdio') {
    return { ok: false, error: `${at(field)}: "${value}" needs "command", not "${source}"` }
  }
  if (source === 'httpUrl') {
    if (requested === undefined || requested === 'streamable-http') {
      return { ok: true, transport: 'streamable-http', bareUrl: false }
    }
    return {
      ok: false,
      error: `${at(field)}: "${value}" conflicts with "httpUrl" (Streamable HTTP)`,
    }
  }
  if (requested === undefined) return { ok: true, transport: 'streamable-http', bareUrl: true }
  return { ok: true, transport: requested, bareUrl: false }
}

/** One sentence per failed expansion, naming the variable or placeholder, never a value. */
export function describeExpandFailure(
  result: Extract<ExpandResult, { ok: false }>,
  path: string,
  descriptions: ReadonlyMap<string, string>,
): string {
  if ('variable' in result) return `${path}: environment variable ${result.variable} is not set`
  switch (result.reason) {
    case 'unanswered': {
      const description = descriptions.get(result.placeholder)
      const what = description ? ` (${JSON.stringify(description)})` : ''
      return (
        `${path}: \${input:${result.placeholder}}${what} has no answer; ` +
        `give it with \`ferry config input ${result.placeholder}\` (kept in Ferry's own inputs.json), ` +
        `or in your Ferry settings with "inputs": { "${result.placeholder}": "…" }`
      )
    }
    case 'unterminated':
      return `${path}: "\${" has no closing "}"; write "$\${" for a literal "\${"`
    case 'unknown':
      return (
        `${path}: placeholder ${result.placeholder} is not supported; Ferry expands ` +
        '${NAME}, ${env:NAME}, ${NAME:-default}, ${workspaceFolder}, ${workspaceFolderBasename}, ' +
        '${userHome}, ${pathSeparator} and ${input:id}'
      )
  }
}

/**
 * The `oauth` block with `$VAR`s expanded (a client secret usually comes from the environment).
 * URLs are checked here so a typo is a settings error, not a failed sign-in.
 */
function oauthOf(
  raw: RawServer['oauth'],
  expand: (value: string, path: string) => string,
  at: (...segments: PathSegment[]) => string,
  errors: string[],
): OAuthSettings {
  const text = (key: 'clientId' | 'clientSecret', value: string | undefined) =>
    value === undefined ? undefined : expand(value, at('oauth', key))
  const url = (
    key: 'redirectUri' | 'authorizationUrl' | 'tokenUrl' | 'clientMetadataUrl',
    value: string | undefined,
  ): string | undefined => {
    if (value === undefined) return undefined
    const expanded = expand(value, at('oauth', key))
    const problem = oauthUrlProblem(key, expanded)
    if (problem !== undefined) errors.push(`${at('oauth', key)}: ${problem}`)
    return expanded
  }
  const settings: OAuthSettings = {
    enabled: raw?.enabled ?? true,
    clientId: text('clientId', raw?.clientId),
    clientSecret: text('clientSecret', raw?.clientSecret),
    scopes: raw?.scopes ?? [],
    redirectUri: url('redirectUri', raw?.redirectUri),
    authorizationUrl: url('authorizationUrl', raw?.authorizationUrl),
    tokenUrl: url('tokenUrl', raw?.tokenUrl),
    clientMetadataUrl: url('clientMetadataUrl', raw?.clientMetadataUrl),
  }
  if (settings.clientSecret !== undefined && settings.clientId === undefined) {
    errors.push(`${at('oauth', 'clientSecret')}: needs "clientId" beside it`)
  }
  if ((settings.authorizationUrl === undefined) !== (settings.tokenUrl === undefined)) {
    errors.push(
      `${at('oauth')}: "authorizationUrl" and "tokenUrl" go together; set both or neither`,
    )
  }
  return settings
}

function oauthUrlProblem(key: string, value: string): string | undefined {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return 'expected an absolute URL'
  }
  if (key === 'clientMetadataUrl') {
    return url.protocol === 'https:' && url.pathname !== '/'
      ? undefined
      : 'expected an https URL with a path (a client ID metadata document)'
  }
  if (key === 'redirectUri') {
    return url.protocol === 'http:' && isLoopbackHost(url.hostname)
      ? undefined
      : "expected an http URL on 127.0.0.1, [::1] or localhost that reaches the daemon's /oauth/callback"
  }
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname))
    ? undefined
    : 'expected an https URL (http only on a loopback host)'
}

function isLoopbackHost(host: string): boolean {
  return host === '127.0.0.1' || host === '[::1]' || host === 'localhost'
}

function inapplicableFields(raw: RawServer, transport: TransportKind): string[] {
  const fields =
    transport === 'stdio'
      ? (['headers', 'oauth'] as const)
      : (['args', 'env', 'envFile', 'cwd'] as const)
  return fields.filter((key) => raw[key] !== undefined)
}

function discoveryTimeout(
  value: number | undefined,
  transport: TransportKind,
  at: (...segments: PathSegment[]) => string,
  warnings: string[],
): number {
  if (value === undefined) {
    return transport === 'stdio' ? DEFAULT_STDIO_DISCOVERY_MS : DEFAULT_REMOTE_DISCOVERY_MS
  }
  const clamped = Math.min(MAX_DISCOVERY_MS, Math.max(MIN_DISCOVERY_MS, value))
  if (clamped !== value) {
    const limit = value < MIN_DISCOVERY_MS ? 'below the minimum' : 'above the maximum'
    warnings.push(`${at('discoveryTimeoutMs')}: ${value} is ${limit} ${clamped}, using ${clamped}`)
  }
  return clamped
}

/**
 * The roots as absolute paths, relative ones against the file's folder; without a `roots` key, the
 * workspace where one is known, else none declared; `"client"` as it is.
 */
function rootsOf(
  roots: RawServer['roots'],
  context: BuildContext,
  expand: (value: string, path: string) => string,
  at: (...segments: PathSegment[]) => string,
): string[] | false | 'client' {
  if (roots === false || roots === 'client') return roots
  if (roots === undefined) return context.workspaceRoots
  return roots.map((root, index) =>
    resolve(dirname(context.file), expand(root, at('roots', index))),
  )
}

function hasUserinfo(value: string): boolean {
  const { username, password } = new URL(value)
  return username !== '' || password !== ''
}

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value)
    return protocol === 'http:' || protocol === 'https:'
  } catch {
    return false
  }
}
