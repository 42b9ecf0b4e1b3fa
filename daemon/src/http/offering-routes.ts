// Prompts, resources, subscriptions and completions over REST (see docs/api.md): listings from
// what ready servers listed, and gets, reads and subscriptions inside a session (the workspace's
// default unless one is named), each recorded in its transcript.

import type { HttpBindings } from '@hono/node-server'
import type { Context } from 'hono'
import { Hono } from 'hono'
import type { CatalogApi, SessionsApi } from '../service/ferry-service.js'
import { toPromptInfo } from '../core/offerings.js'
import {
  completionRequestSchema,
  promptGetRequestSchema,
  resourceRequestSchema,
  type CompletionResponse,
  type PromptGetResponse,
  type PromptInfo,
  type ResourceReadResponse,
  type ResourceSubscriptionResponse,
  type ResourcesResponse,
} from '../protocol/index.js'
import { requestClient } from './call-routes.js'
import { jsonBody, parseBody } from './guards.js'

/** A signal that aborts when the client goes away before its answer is written. */
export function clientGone(c: Context): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController()
  const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing
  const onGone = () => {
    if (outgoing?.writableFinished !== true) controller.abort()
  }
  outgoing?.once('close', onGone)
  return { signal: controller.signal, done: () => outgoing?.off('close', onGone) }
}

export function offeringRoutes(catalog: CatalogApi, sessions: SessionsApi): Hono {
  const routes = new Hono()

  routes.get('/prompts', (c) =>
    c.json<PromptInfo[]>(catalog.offerings.prompts(c.req.query('server')).map(toPromptInfo)),
  )

  routes.get('/resources', (c) =>
    c.json<ResourcesResponse>(catalog.offerings.resources(c.req.query('server'))),
  )

  routes.post('/prompts/get', async (c) => {
    const body = parseBody(promptGetRequestSchema, await jsonBody(c))
    const session = await sessions.resolve(body.session)
    const gone = clientGone(c)
    try {
      const got = await sessions.getPrompt(
        session,
        { name: body.name, arguments: body.arguments ?? {} },
        requestClient(body.client),
        gone.signal,
      )
      return c.json<PromptGetResponse>({
        session: session.id,
        prompt: got.prompt,
        result: got.result as PromptGetResponse['result'],
      })
    } finally {
      gone.done()
    }
  })

  routes.post('/resources/read', async (c) => {
    const body = parseBody(resourceRequestSchema, await jsonBody(c))
    const session = await sessions.resolve(body.session)
    const gone = clientGone(c)
    try {
      const result = await sessions.readResource(
        session,
        body.server,
        body.uri,
        requestClient(body.client),
        gone.signal,
      )
      return c.json<ResourceReadResponse>({
        session: session.id,
        server: body.server,
        uri: body.uri,
        result: result as ResourceReadResponse['result'],
      })
    } finally {
      gone.done()
    }
  })

  for (const subscribed of [true, false]) {
    routes.post(subscribed ? '/resources/subscribe' : '/resources/unsubscribe', async (c) => {
      const body = parseBody(resourceRequestSchema, await jsonBody(c))
      const session = await sessions.resolve(body.session)
      const client = requestClient(body.client)
      let seq: number | null = null
      if (subscribed) seq = await sessions.subscribeResource(session, body.server, body.uri, client)
      else await sessions.unsubscribeResource(session, body.server, body.uri, client)
      return c.json<ResourceSubscriptionResponse>({
        session: session.id,
        server: body.server,
        uri: body.uri,
        subscribed,
        seq,
      })
    })
  }

  routes.post('/completions', async (c) => {
    const body = parseBody(completionRequestSchema, await jsonBody(c))
    const gone = clientGone(c)
    try {
      return c.json<CompletionResponse>(await sessions.complete(body, gone.signal))
    } finally {
      gone.done()
    }
  })

  return routes
}
