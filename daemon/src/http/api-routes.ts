// The REST API under /api (see docs/api.md). Handlers validate input, call the Ferry core, and
// shape the response; they hold no state of their own.

import { Hono } from 'hono'
import { z } from 'zod'
import type { Ferry } from '../core/ferry.js'
import { ErrorCode, FerryError } from '../errors.js'
import type {
  CallResponse,
  LogsResponse,
  StatusResponse,
  ServerInfo,
  ToolInfo,
} from '../protocol/index.js'
import { jsonBody } from './guards.js'

const callBody = z.object({
  tool: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()).optional(),
  timeoutMs: z.number().int().positive().optional(),
})

export interface ApiDeps {
  ferry: Ferry
  status: () => Omit<StatusResponse, 'servers' | 'settingsFiles' | 'usingDemo' | 'warnings'>
  shutdown: () => void
}

function parseWith<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : ''
  throw new FerryError(ErrorCode.BadRequest, `${where}${issue?.message ?? 'invalid body'}`)
}

export function apiRoutes(deps: ApiDeps): Hono {
  const { ferry } = deps
  const api = new Hono()

  api.get('/status', (c) => {
    const servers = ferry.servers()
    const body: StatusResponse = {
      ...deps.status(),
      settingsFiles: ferry.settings.files,
      usingDemo: ferry.settings.usingDemo,
      warnings: ferry.settings.warnings,
      servers: { total: servers.length, ready: servers.filter((s) => s.status === 'ready').length },
    }
    return c.json(body)
  })

  api.get('/servers', (c) => c.json<ServerInfo[]>(ferry.servers()))

  api.post('/servers/:name/reconnect', async (c) => {
    await ferry.reconnect(c.req.param('name'))
    return c.json<ServerInfo[]>(ferry.servers())
  })

  api.get('/servers/:name/logs', (c) => {
    const server = c.req.param('name')
    return c.json<LogsResponse>({ server, lines: ferry.logs(server) })
  })

  api.get('/tools', async (c) => {
    const server = c.req.query('server')
    if (c.req.query('refresh') === 'true') await ferry.refreshTools(server)
    return c.json<ToolInfo[]>(ferry.tools(server))
  })

  api.post('/call', async (c) => {
    const body = parseWith(callBody, await jsonBody(c))
    // A client that goes away cancels its call on the server.
    const result = await ferry.call(body.tool, body.arguments ?? {}, {
      signal: c.req.raw.signal,
      timeoutMs: body.timeoutMs,
    })
    return c.json<CallResponse>({ result })
  })

  api.post('/reload', async (c) => c.json(await ferry.reload()))

  api.post('/shutdown', (c) => {
    setImmediate(deps.shutdown)
    return c.json({ stopping: true })
  })

  return api
}
