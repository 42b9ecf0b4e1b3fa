// The MCP Apps of a session over REST (see docs/api.md): every App its transcript holds, oldest
// first, each with the latest model context it sent.

import { Hono } from 'hono'
import type { AppsResponse } from '../protocol/index.js'
import type { SessionsApi } from '../service/ferry-service.js'

export function appRoutes(sessions: SessionsApi): Hono {
  const routes = new Hono()

  routes.get('/sessions/:id/apps', (c) => {
    return c.json<AppsResponse>(sessions.appContexts(c.req.param('id')))
  })

  return routes
}
