// The zod schemas for one `mcpServers` entry, the global `mcp` block and the `gateway` block, as written in a file
// (before transport resolution, defaults and `$VAR` expansion).

import { z } from 'zod'
import { logLevelSchema } from '../protocol/observe.js'

const stringArray = z.array(z.string())
const stringMap = z.record(z.string(), z.string())

export const serverSchema = z.object({
  command: z.string().min(1, { error: 'expected a non-empty string' }).optional(),
  args: stringArray.optional(),
  env: stringMap.optional(),
  cwd: z.string().optional(),
  /** Cursor / VS Code: a dotenv file whose variables join `env` (explicit `env` wins). */
  envFile: z.string().optional(),
  url: z.string().optional(),
  httpUrl: z.string().optional(),
  transport: z.enum(['sse', 'streamable-http']).optional(),
  /** Cursor / Claude Code spelling of the transport choice. */
  type: z.enum(['stdio', 'http', 'streamable-http', 'sse']).optional(),
  headers: stringMap.optional(),
  timeout: z.int().positive({ error: 'expected a positive integer' }).optional(),
  discoveryTimeoutMs: z.int().optional(),
  appResourceTimeoutMs: z.int().positive({ error: 'expected a positive integer' }).optional(),
  versionNegotiation: z.enum(['legacy', 'auto']).optional(),
  logLevel: logLevelSchema.optional(),
  trust: z.boolean().optional(),
  disabled: z.boolean().optional(),
  includeTools: stringArray.optional(),
  excludeTools: stringArray.optional(),
  /** OAuth sign-in for a remote server, with the keys Gemini CLI and Qwen Code use. */
  oauth: z
    .object({
      enabled: z.boolean().optional(),
      clientId: z.string().min(1, { error: 'expected a non-empty string' }).optional(),
      clientSecret: z.string().min(1, { error: 'expected a non-empty string' }).optional(),
      scopes: stringArray.optional(),
      redirectUri: z.string().optional(),
      authorizationUrl: z.string().optional(),
      tokenUrl: z.string().optional(),
      clientMetadataUrl: z.string().optional(),
    })
    .optional(),
  /**
   * The server's roots: directories (relative ones against the settings file), false, or
   * "client" (those of the gateway client whose call asks).
   */
  roots: z
    .union([stringArray, z.literal(false), z.literal('client')], {
      error:
        'expected a list of directory paths, false to declare no roots, or "client" for the calling gateway client\'s',
    })
    .optional(),
})

export type RawServer = z.infer<typeof serverSchema>

export const serverKeys: ReadonlySet<string> = new Set(Object.keys(serverSchema.shape))

export const oauthKeys: ReadonlySet<string> = new Set(
  Object.keys(serverSchema.shape.oauth.unwrap().shape),
)

export const mcpSchema = z.object({
  allowed: stringArray.optional(),
  excluded: stringArray.optional(),
})

export const mcpKeys: ReadonlySet<string> = new Set(Object.keys(mcpSchema.shape))

const positiveInt = z.int().positive({ error: 'expected a positive integer' })

export const gatewaySchema = z.object({
  enabled: z.boolean().optional(),
  phase: z
    .union([z.literal(1), z.literal(2), z.literal(3)], { error: 'expected 1, 2 or 3' })
    .optional(),
  sessionIdleMs: positiveInt.optional(),
  maxSessions: positiveInt.optional(),
  taskAfterMs: z.int().nonnegative({ error: 'expected a non-negative integer' }).optional(),
  toolSearch: z.boolean().optional(),
  pinnedTools: stringArray.optional(),
})

export type RawGateway = z.infer<typeof gatewaySchema>

export const gatewayKeys: ReadonlySet<string> = new Set(Object.keys(gatewaySchema.shape))
