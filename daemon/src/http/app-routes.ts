// The MCP Apps of a session over REST (see docs/api.md): every App its transcript holds, oldest
// first, each with the latest model context it sent.

import { Hono } from 'hono'
import type { AppsResponse } from '../protocol/index.js'
import { appContexts } from '../sessions/app-transcript.js'
import type { Sessions } from '../sessions/sessions.js'

export function appRoutes(sessions: Sessions): Hono {
  const routes = new Hono()

  routes.get('/sessions/:id/apps', (c) => {
    const session = sessions.manager.get(c.req.param('id'))
    return c.json<AppsResponse>({ session: session.id, apps: appContexts(session.eventsAfter(0)) })
  })

  return routes
}
