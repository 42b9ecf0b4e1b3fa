// Gateway tokens over the admin API: list, create (the only answer that shows a token) and revoke.

import { Hono } from 'hono'
import { z } from 'zod'
import type { GatewayTokenStore } from '../gateway/token-store.js'
import type { GatewayTokenCreateResponse, GatewayTokenInfo } from '../protocol/index.js'
import { jsonBody, parseBody } from './guards.js'

const createBody = z.object({
  name: z.string().min(1).max(64),
  servers: z.array(z.string().min(1).max(64)).min(1).max(100).optional(),
  unprefixed: z.boolean().optional(),
  session: z.string().min(1).max(64).optional(),
  confirmInClient: z.boolean().optional(),
  toolSearch: z.boolean().optional(),
})

export interface GatewayRouteDeps {
  tokens: GatewayTokenStore
  /** The gateway's URL, e.g. `http://127.0.0.1:4123/mcp`. */
  url: () => string
  /** Refuses a session id that does not exist, so a token never points nowhere. */
  checkSession: (id: string) => Promise<void>
}

export function gatewayRoutes(deps: GatewayRouteDeps): Hono {
  const routes = new Hono()
  routes.get('/gateway/tokens', (c) => c.json<GatewayTokenInfo[]>(deps.tokens.list()))
  routes.post('/gateway/tokens', async (c) => {
    const body = parseBody(createBody, await jsonBody(c))
    if (body.session !== undefined) await deps.checkSession(body.session)
    const created = await deps.tokens.create(body)
    return c.json<GatewayTokenCreateResponse>({ ...created, url: deps.url() }, 201)
  })
  routes.delete('/gateway/tokens/:name', async (c) => {
    const name = c.req.param('name')
    await deps.tokens.revoke(name)
    return c.json({ revoked: name })
  })
  return routes
}
