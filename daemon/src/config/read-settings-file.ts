// Reads one settings file and checks its top-level shape; server entries stay raw so a bad one only
// invalidates itself. Whole-file problems (syntax, wrong top-level shape) are fatal FerryErrors.

import { readFile } from 'node:fs/promises'
import type { z } from 'zod'
import { ErrorCode, FerryError, errorMessage } from '../errors.js'
import { formatIssue, isPlainObject, unknownKeyWarnings } from './format-path.js'
import { parseSettingsJson } from './parse-settings-json.js'
import { gatewayKeys, gatewaySchema, mcpKeys, mcpSchema, type RawGateway } from './server-schema.js'

export interface SettingsFile {
  path: string
  /** Raw `mcpServers` (or VS Code `servers`) entries in file order. */
  servers: Map<string, unknown>
  /** Whether the file has a `mcpServers` / `servers` object at all, even an empty one. */
  hasServersKey: boolean
  hasPolicy: boolean
  allowed: string[] | undefined
  excluded: string[] | undefined
  /** Ferry's `inputs` answers for `${input:id}`: an object of strings. */
  inputs: Record<string, string> | undefined
  /** VS Code's `inputs` definitions (id → description), to name them in messages. */
  inputDescriptions: Map<string, string>
  /** The `gateway` block as written, if any. */
  gateway: RawGateway | undefined
  warnings: string[]
}

// `$schema` is an editor hint, not a setting; it is accepted without a warning. `servers` and the
// list form of `inputs` are how VS Code writes `.vscode/mcp.json`.
const TOP_LEVEL_KEYS: ReadonlySet<string> = new Set([
  'mcpServers',
  'servers',
  'inputs',
  'mcp',
  'gateway',
  '$schema',
])

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
  if (value.mcpServers !== undefined && value.servers !== undefined) {
    return fail('has both "mcpServers" and "servers" (VS Code); keep one of them')
  }
  const key = value.servers !== undefined ? 'servers' : 'mcpServers'
  const map = value[key]
  if (map !== undefined) {
    if (!isPlainObject(map)) return fail(`${key}: expected an object`)
    for (const [name, entry] of Object.entries(map)) servers.set(name, entry)
  }
  const inputs = readInputs(value.inputs, warnings)

  // A malformed allow/exclude list or gateway block is fatal: ignoring or guessing could start
  // servers meant to stay off, or serve what the person turned off.
  const block = <T>(key: 'mcp' | 'gateway', schema: z.ZodType<T>, keys: ReadonlySet<string>) => {
    const raw = value[key]
    if (raw === undefined) return undefined
    if (!isPlainObject(raw)) return fail(`${key}: expected an object`)
    warnings.push(...unknownKeyWarnings(raw, keys, [key]))
    const parsed = schema.safeParse(raw)
    if (!parsed.success) {
      return fail(parsed.error.issues.map((issue) => formatIssue([key], issue)).join('; '))
    }
    return parsed.data
  }
  const mcp = block('mcp', mcpSchema, mcpKeys)
  const gateway: RawGateway | undefined = block('gateway', gatewaySchema, gatewayKeys)
  const allowed = mcp?.allowed
  const excluded = mcp?.excluded
  return {
    path,
    servers,
    hasServersKey: map !== undefined,
    hasPolicy: value.mcp !== undefined || value.gateway !== undefined,
    allowed,
    excluded,
    ...inputs,
    gateway,
    warnings,
  }
}

/** Ferry's answers (an object of strings) or VS Code's definitions (a list); anything else warns. */
function readInputs(
  value: unknown,
  warnings: string[],
): Pick<SettingsFile, 'inputs' | 'inputDescriptions'> {
  const inputDescriptions = new Map<string, string>()
  if (value === undefined) return { inputs: undefined, inputDescriptions }
  if (Array.isArray(value)) {
    for (const item of value) {
      if (!isPlainObject(item) || typeof item.id !== 'string') continue
      inputDescriptions.set(item.id, typeof item.description === 'string' ? item.description : '')
    }
    return { inputs: undefined, inputDescriptions }
  }
  if (isPlainObject(value)) {
    const inputs: Record<string, string> = {}
    for (const [id, answer] of Object.entries(value)) {
      if (typeof answer === 'string') inputs[id] = answer
      else warnings.push(`inputs.${id}: expected a string, ignored`)
    }
    return { inputs, inputDescriptions }
  }
  warnings.push('inputs: expected an object of answers (or a VS Code list of inputs), ignored')
  return { inputs: undefined, inputDescriptions }
}
