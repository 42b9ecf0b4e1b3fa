// What a server says and what passed on the wire, over REST: its stderr and MCP log lines, its
// protocol trace, and its log level (read and set at run time).

import { Hono } from 'hono'
import type { CatalogApi } from '../service/ferry-service.js'
import { ErrorCode, FerryError } from '../errors.js'
import {
  logLevelRequestSchema,
  type LogLevelResponse,
  type LogsResponse,
  type TraceResponse,
} from '../protocol/index.js'
import { jsonBody, parseBody } from './guards.js'

/** `?after=SEQ`: 0 when absent; anything but a non-negative integer is refused. */
export function afterParam(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 0
  const after = Number(raw)
  if (!Number.isSafeInteger(after) || after < 0) {
    throw new FerryError(
      ErrorCode.BadRequest,
      `after: expected a non-negative integer (the last seq you have), got ${JSON.stringify(raw)}`,
    )
  }
  return after
}

export function observeRoutes(catalog: CatalogApi): Hono {
  const routes = new Hono()

  routes.get('/servers/:name/logs', (c) => {
    const server = c.req.param('name')
    const after = afterParam(c.req.query('after'))
    const observer = catalog.observer(server)
    const lines = catalog.serverConfig(server) === undefined ? [] : catalog.logs(server)
    return c.json<LogsResponse>({ server, lines, entries: observer.linesAfter(after) })
  })

  routes.get('/servers/:name/trace', (c) => {
    const server = c.req.param('name')
    const after = afterParam(c.req.query('after'))
    return c.json<TraceResponse>({ server, entries: catalog.observer(server).trace.after(after) })
  })

  routes.get('/servers/:name/log-level', (c) =>
    c.json<LogLevelResponse>(catalog.observer(c.req.param('name')).describe()),
  )

  routes.put('/servers/:name/log-level', async (c) => {
    const body = parseBody(logLevelRequestSchema, await jsonBody(c))
    return c.json<LogLevelResponse>(
      await catalog.observer(c.req.param('name')).setLevel(body.level),
    )
  })

  return routes
}
