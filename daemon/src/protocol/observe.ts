// What a server says about itself and what passed on the wire: MCP log messages (`server.log`
// events), the per-server log level, and the protocol trace. Zod schemas, types inferred; the
// WebShell imports the types only.

import { z } from 'zod'

/** RFC 5424 severities, as MCP's `logging/setLevel` names them, least severe first. */
export const LOG_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const
export const logLevelSchema = z.enum(LOG_LEVELS, {
  error: `expected one of ${LOG_LEVELS.map((level) => `"${level}"`).join(', ')}`,
})
export type LogLevel = z.infer<typeof logLevelSchema>

/** `server.log`: one `notifications/message`; `callId` when it came during a call Ferry can name. */
export const serverLogSchema = z.object({
  type: z.literal('server.log'),
  server: z.string(),
  level: logLevelSchema,
  logger: z.string().nullable(),
  data: z.unknown(),
  callId: z.string().nullable(),
})
export type ServerLogEvent = z.infer<typeof serverLogSchema>

/**
 * Body of `PUT /api/servers/{name}/log-level`: kept until the settings' `logLevel` for the server
 * changes (a reload that changes it wins) or the daemon restarts.
 */
export const logLevelRequestSchema = z.object({ level: logLevelSchema })
export type LogLevelRequest = z.infer<typeof logLevelRequestSchema>

/**
 * Answer of `GET` and `PUT /api/servers/{name}/log-level`. `delivery` says how the level reaches
 * the server: `setLevel` (legacy `logging/setLevel`, sent), `request-meta` (2026-07-28: in
 * `_meta["io.modelcontextprotocol/logLevel"]` of every request Ferry sends), `filter` (the server
 * declares no logging or is not connected: Ferry only drops what is below the level).
 */
export interface LogLevelResponse {
  server: string
  level: LogLevel
  /** `settings` when it is the settings' `logLevel` (or the default), `runtime` after a PUT. */
  source: 'settings' | 'runtime'
  delivery: 'setLevel' | 'request-meta' | 'filter'
}

/**
 * One JSON-RPC message in a server's protocol trace. Only the message itself is recorded, never
 * HTTP headers or their values.
 */
export const traceEntrySchema = z.object({
  /** Increasing per server, from 1; the trace keeps the last 1,000 messages each way. */
  seq: z.number(),
  time: z.string(),
  /** `out`: Ferry to the server; `in`: the server to Ferry. */
  direction: z.enum(['out', 'in']),
  kind: z.enum(['request', 'response', 'error', 'notification']),
  /** The request's method, also on its response or error. */
  method: z.string().nullable(),
  /** The JSON-RPC id of a request, response or error. */
  id: z.union([z.string(), z.number()]).nullable(),
  /** The message's size as sent, in bytes of UTF-8 JSON. */
  bytes: z.number(),
  /** On a response or error: ms since its request. */
  latencyMs: z.number().nullable(),
  /**
   * The message, with any string over 2,048 characters cut and marked (`ferry/cut`); a message
   * still over 64 KB, or an old one once the server's trace holds 8 MB of bodies, keeps only its
   * envelope (`jsonrpc`, `id`, `method`, an error's code and message) and a `ferry/cut` note.
   */
  message: z.unknown(),
})
export type TraceEntry = z.infer<typeof traceEntrySchema>

/** `GET /api/servers/{name}/trace?after=SEQ`: the kept entries after `after`, oldest first. */
export interface TraceResponse {
  server: string
  entries: TraceEntry[]
}

/**
 * One line of `GET /api/servers/{name}/logs`: stderr (Ferry's own notes about the server among
 * it, prefixed `ferry:`), or an MCP log message at or above the server's level. `seq` increases
 * per server across both sources, from 1.
 */
export type ServerLogLine =
  | { seq: number; source: 'stderr'; time: string; text: string }
  | {
      seq: number
      source: 'mcp'
      time: string
      level: LogLevel
      logger: string | null
      data: unknown
    }

const seqSchema = z
  .int()
  .min(0, { error: 'expected a non-negative integer (the last seq you have)' })

/**
 * Stream command `follow_server`: live feeds of one server outside any session, its protocol
 * trace and its stderr and MCP logs. With `traceAfterSeq` / `logsAfterSeq`, the kept entries after
 * that seq come first (0: all kept), then new ones; the reply follows the replay. Following a
 * server again replaces its feeds.
 */
export const followServerSchema = z.object({
  type: z.literal('follow_server'),
  ref: z.string().min(1).max(100),
  server: z.string().min(1),
  feeds: z
    .array(z.enum(['trace', 'logs'], { error: 'expected "trace" or "logs"' }))
    .min(1, { error: 'name at least one feed: "trace", "logs"' }),
  traceAfterSeq: seqSchema.optional(),
  logsAfterSeq: seqSchema.optional(),
})
export type FollowServerCommand = z.infer<typeof followServerSchema>

/** Stream command `unfollow_server`: stops every feed of that server. */
export const unfollowServerSchema = z.object({
  type: z.literal('unfollow_server'),
  ref: z.string().min(1).max(100),
  server: z.string().min(1),
})
export type UnfollowServerCommand = z.infer<typeof unfollowServerSchema>
