// Reads one settings file and checks its top-level shape; server entries stay raw so a bad one only
// invalidates itself. Whole-file problems (syntax, wrong top-level shape) are fatal FerryErrors.

import { readFile } from 'node:fs/promises'
import { ErrorCode, FerryError, errorMessage } from '../errors.js'
import { formatIssue, isPlainObject, unknownKeyWarnings } from './format-path.js'
import { parseSettingsJson } from './parse-settings-json.js'
import { mcpKeys, mcpSchema } from './server-schema.js'

export interface SettingsFile {
  path: string
  /** Raw `mcpServers` entries in file order. */
  servers: Map<string, unknown>
  allowed: string[] | undefined
  excluded: string[] | undefined
  warnings: string[]
}

// `$schema` is an editor hint, not a setting; it is accepted without a warning.
const TOP_LEVEL_KEYS: ReadonlySet<string> = new Set(['mcpServers', 'mcp', '$schema'])

/** Returns undefined when an optional file does not exist; a missing required file is fatal. */
export async function readSettingsFile(
  path: string,
  required: boolean,
): Promise<SettingsFile | undefined> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      if (!required) return undefined
      throw new FerryError(ErrorCode.ConfigInvalid, `settings file not found: ${path}`, {
        cause: error,
        details: { file: path },
      })
    }
    throw new FerryError(
      ErrorCode.ConfigInvalid,
      `cannot read settings file ${path}: ${errorMessage(error)}`,
      { cause: error, details: { file: path } },
    )
  }
  return checkTopLevel(path, parseSettingsJson(path, text))
}

function checkTopLevel(path: string, value: unknown): SettingsFile {
  const fail = (message: string): never => {
    throw new FerryError(ErrorCode.ConfigInvalid, `${path}: ${message}`, {
      details: { file: path },
    })
  }
  if (!isPlainObject(value)) return fail('expected a JSON object at the top level')
  const warnings = unknownKeyWarnings(value, TOP_LEVEL_KEYS, [])

  const servers = new Map<string, unknown>()
  if (value.mcpServers !== undefined) {
    if (!isPlainObject(value.mcpServers)) return fail('mcpServers: expected an object')
    for (const [name, entry] of Object.entries(value.mcpServers)) servers.set(name, entry)
  }

  // A malformed allow/exclude list is fatal: ignoring it could start servers meant to stay off.
  let allowed: string[] | undefined
  let excluded: string[] | undefined
  if (value.mcp !== undefined) {
    if (!isPlainObject(value.mcp)) return fail('mcp: expected an object')
    warnings.push(...unknownKeyWarnings(value.mcp, mcpKeys, ['mcp']))
    const parsed = mcpSchema.safeParse(value.mcp)
    if (!parsed.success) {
      return fail(parsed.error.issues.map((issue) => formatIssue(['mcp'], issue)).join('; '))
    }
    allowed = parsed.data.allowed
    excluded = parsed.data.excluded
  }
  return { path, servers, allowed, excluded, warnings }
}
