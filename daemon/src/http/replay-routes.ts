// `POST /api/servers/{name}/replay`: a request of the server's protocol trace sent again, through
// the sessions' replay (the same call path, confirmations and operations as any request). A
// client that goes away before the answer cancels it.

import { Hono } from 'hono'
import { replayRequestSchema, type ReplayResponse } from '../protocol/index.js'
import type { SessionsApi } from '../service/ferry-service.js'
import { requestClient } from './call-routes.js'
import { jsonBody, parseBody } from './guards.js'
import { clientGone } from './offering-routes.js'

export function replayRoutes(sessions: SessionsApi): Hono {
  const routes = new Hono()

  routes.post('/servers/:name/replay', async (c) => {
    const body = parseBody(replayRequestSchema, await jsonBody(c))
    const gone = clientGone(c)
    try {
      const replayed = await sessions.replay(
        c.req.param('name'),
        body,
        requestClient(body.client),
        gone.signal,
      )
      return c.json<ReplayResponse>(replayed)
    } finally {
      gone.done()
    }
  })

  return routes
}
