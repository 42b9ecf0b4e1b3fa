// SessionsApi over REST: list, create, rename, delete, and read a transcript from a seq on.

import { Hono } from 'hono'
import { z } from 'zod'
import type { EventsPage, SessionInfo } from '../protocol/index.js'
import type { SessionsApi } from '../service/ferry-service.js'
import { jsonBody, parseBody } from './guards.js'

const nameBody = z.object({ name: z.string().trim().min(1).max(100) })
const createBody = z.object({ name: z.string().trim().min(1).max(100).optional() })

export function sessionRoutes(sessions: SessionsApi): Hono {
  const routes = new Hono()

  routes.get('/sessions', (c) => c.json<SessionInfo[]>(sessions.list()))

  routes.post('/sessions', async (c) => {
    const body = parseBody(createBody, await jsonBody(c))
    const session = await sessions.create(body.name ?? 'untitled')
    return c.json<SessionInfo>(session.info(), 201)
  })

  routes.patch('/sessions/:id', async (c) => {
    const body = parseBody(nameBody, await jsonBody(c))
    return c.json<SessionInfo>(await sessions.rename(c.req.param('id'), body.name))
  })

  routes.post('/sessions/:id/compact', async (c) =>
    c.json<SessionInfo>(await sessions.compact(c.req.param('id'))),
  )

  routes.delete('/sessions/:id', async (c) => {
    await sessions.remove(c.req.param('id'))
    return c.json({ deleted: c.req.param('id') })
  })

  routes.get('/sessions/:id/events', (c) => {
    const session = sessions.get(c.req.param('id'))
    const requested = Math.max(0, Number(c.req.query('after') ?? 0) || 0)
    const after = session.needsSnapshot(requested) ? 0 : requested
    const limit = Math.min(10_000, Math.max(1, Number(c.req.query('limit') ?? 1000) || 1000))
    return c.json<EventsPage>({
      session: session.id,
      headSeq: session.info().headSeq,
      compactedThrough: session.info().compactedThrough,
      events: session.eventsAfter(after, limit),
    })
  })

  return routes
}
