// The "always allow" grants in force and their revocation: `GET /api/grants?session=ID` lists a
// session's grants (who gave each, for what, since when, whose calls it covers), and
// `POST /api/grants/revoke` ends some or all of them, recorded in the transcript.

import { Hono } from 'hono'
import {
  grantRevokeRequestSchema,
  type GrantRevokeResponse,
  type GrantsResponse,
} from '../protocol/index.js'
import type { SessionsApi } from '../service/ferry-service.js'
import { requestClient } from './call-routes.js'
import { jsonBody, parseBody } from './guards.js'
import { clientSchema } from '../protocol/wire.js'

const revokeBody = grantRevokeRequestSchema
  .extend({ client: clientSchema.optional() })
  .refine((body) => (body.all === true) !== (body.ids !== undefined && body.ids.length > 0), {
    message: 'name the grants to revoke in "ids", or send "all": true, not both',
  })

export function grantRoutes(sessions: SessionsApi): Hono {
  const routes = new Hono()
  routes.get('/grants', async (c) =>
    c.json<GrantsResponse>(await sessions.grants(c.req.query('session'))),
  )
  routes.post('/grants/revoke', async (c) => {
    const body = parseBody(revokeBody, await jsonBody(c))
    const revoked = await sessions.revokeGrants(
      body.session,
      body.all === true ? undefined : body.ids,
      requestClient(body.client),
    )
    return c.json<GrantRevokeResponse>(revoked)
  })
  return routes
}
