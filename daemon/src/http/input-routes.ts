// `POST /api/inputs/{id}/answer`: any client answers a server's open question (elicitation or
// sampling). The first answer wins; a later one gets 409 naming who answered, an unknown id 404,
// and an answer that does not fit what was asked 422, the question staying open.

import { Hono } from 'hono'
import { inputAnswerSchema, type InputAnswerResponse } from '../protocol/index.js'
import type { SessionsApi } from '../service/ferry-service.js'
import { requestClient } from './call-routes.js'
import { jsonBody, parseBody } from './guards.js'
import { clientSchema } from '../protocol/wire.js'

const answerBody = inputAnswerSchema.extend({ client: clientSchema.optional() })

export function inputRoutes(sessions: SessionsApi): Hono {
  const routes = new Hono()
  routes.post('/inputs/:id/answer', async (c) => {
    const { client, ...answer } = parseBody(answerBody, await jsonBody(c))
    const response = await sessions.answerInput(c.req.param('id'), answer, requestClient(client))
    return c.json<InputAnswerResponse>(response)
  })
  return routes
}
