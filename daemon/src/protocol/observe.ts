// What a server says about itself and what passed on the wire: MCP log messages (`server.log`
// events), the per-server log level, and the protocol trace. Zod schemas, types inferred; the
// WebShell imports the types only.

import { z } from 'zod'

/** RFC 5424 severities, as MCP's `logging/setLevel` names them, least severe first. */
export const logLevelSchema = z.enum([
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
])
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

/** Body of `PUT /api/servers/{name}/log-level`: kept until the next reload or restart. */
export const logLevelRequestSchema = z.object({ level: logLevelSchema })
export type LogLevelRequest = z.infer<typeof logLevelRequestSchema>

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
  /** The message, with any string over 64 KB cut and marked. */
  message: z.unknown(),
})
export type TraceEntry = z.infer<typeof traceEntrySchema>

/** `GET /api/servers/{name}/trace?after=SEQ`: the kept entries after `after`, oldest first. */
export interface TraceResponse {
  server: string
  entries: TraceEntry[]
}

/** One line of `GET /api/servers/{name}/logs`: stderr, or an MCP log message. */
export type ServerLogLine =
  | { source: 'stderr'; time: string; text: string }
  | {
      source: 'mcp'
      time: string
      level: LogLevel
      logger: string | null
      data: unknown
    }
