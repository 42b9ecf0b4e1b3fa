// Tool calls over REST, always inside a session (the workspace's default unless one is named):
// `POST /api/call` answers with JSON, or streams the call's own events as NDJSON when asked;
// `POST /api/calls/{id}/cancel` stops a call and `POST /api/calls/{id}/answer` answers its
// confirmation; an NDJSON caller also sees its call's questions (`input`, `inputResolved`).
// A client that disconnects cancels its call.

import type { HttpBindings } from '@hono/node-server'
import { randomBytes } from 'node:crypto'
import { Hono } from 'hono'
import { stream } from 'hono/streaming'
import { z } from 'zod'
import { toFerryError, toWireError } from '../errors.js'
import type { Log } from '../log.js'
import type { CallResponse, CallStreamLine, ClientRef } from '../protocol/index.js'
import type { Sessions } from '../sessions/sessions.js'
import { errorBody } from './error-response.js'
import { jsonBody, parseBody } from './guards.js'
import { callFields, clientSchema, outcomeSchema } from './wire-schemas.js'

const callBody = z.object({
  ...callFields,
  session: z.string().min(1).optional(),
  /** Answer the confirmation with "allow once" up front. */
  yes: z.boolean().optional(),
  /** The caller will answer a confirmation itself (from `confirmation` stream lines). */
  interactive: z.boolean().optional(),
  client: clientSchema.optional(),
})

const answerBody = z.object({ outcome: outcomeSchema, client: clientSchema.optional() })

export function requestClient(client: z.infer<typeof clientSchema> | undefined): ClientRef {
  return {
    id: randomBytes(4).toString('hex'),
    kind: client?.kind ?? 'api',
    label: client?.label ?? 'REST API',
  }
}

export function callRoutes(sessions: Sessions, log: Log): Hono {
  const routes = new Hono()

  routes.post('/call', async (c) => {
    const body = parseBody(callBody, await jsonBody(c))
    const session = await sessions.resolve(body.session)
    const callId = body.id ?? sessions.runner.newCallId()
    const client = requestClient(body.client)
    const streaming = (c.req.header('accept') ?? '').includes('application/x-ndjson')

    // A client that goes away before its answer is written cancels the call.
    const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing
    const onGone = () => {
      if (outgoing?.writableFinished !== true) {
        try {
          sessions.runner.cancel(callId, client)
        } catch {}
      }
    }
    outgoing?.once('close', onGone)
    const run = () =>
      sessions.runner.run(session, {
        tool: body.tool,
        arguments: body.arguments ?? {},
        client,
        timeoutMs: body.timeoutMs,
        callId,
        preapproved: body.yes,
        callerCanAnswer: streaming && body.interactive === true,
        callerAnswersInputs: streaming && body.interactive === true,
        answerers: () => session.answererCount(),
      })

    if (!streaming) {
      try {
        const { result } = await run()
        return c.json<CallResponse>({ id: callId, session: session.id, result })
      } finally {
        outgoing?.off('close', onGone)
      }
    }
    c.header('Content-Type', 'application/x-ndjson')
    return stream(c, async (out) => {
      // Lines go out strictly in order, each after the previous write finished.
      let written: Promise<unknown> = Promise.resolve()
      const write = (line: CallStreamLine) =>
        (written = written.then(() => out.write(`${JSON.stringify(line)}\n`)))
      // The call's questions, by id: their `input.resolved` carries no call id.
      const inputs = new Set<string>()
      const unsubscribe = session.subscribe(session.info().headSeq, (event) => {
        if (event.type === 'input.resolved' && inputs.delete(event.inputId)) {
          const { inputId, action } = event
          void write({ inputResolved: { inputId, action, by: event.client?.label ?? null } })
          return
        }
        if (!('callId' in event) || event.callId !== callId) return
        if (event.type === 'call.progress') {
          const { progress, total, message } = event
          void write({
            progress: {
              progress,
              ...(total === undefined ? {} : { total }),
              ...(message === undefined ? {} : { message }),
            },
          })
        } else if (event.type === 'input.requested') {
          inputs.add(event.inputId)
          const { seq: _seq, time: _time, client: _client, truncated: _truncated, ...input } = event
          void write({ input })
        } else if (event.type === 'confirmation.requested') {
          void write({ confirmation: { callId, tool: event.tool, server: event.server } })
        } else if (event.type === 'confirmation.resolved') {
          void write({
            confirmed: { callId, outcome: event.outcome, by: event.client?.label ?? 'Ferry' },
          })
        }
      })
      try {
        await write({ call: { id: callId, session: session.id } })
        const { result } = await run()
        await write({ result })
      } catch (error) {
        const wire = toWireError(error, log, { where: 'ndjson call', session: session.id, callId })
        await write(errorBody(wire.code, wire.message))
      } finally {
        unsubscribe()
        outgoing?.off('close', onGone)
      }
    })
  })

  routes.post('/calls/:id/cancel', (c) => {
    const id = c.req.param('id')
    sessions.runner.cancel(id, requestClient(undefined))
    return c.json({ cancelled: id })
  })

  routes.post('/calls/:id/answer', async (c) => {
    const body = parseBody(answerBody, await jsonBody(c))
    const id = c.req.param('id')
    try {
      await sessions.broker.answer(id, body.outcome, requestClient(body.client))
    } catch (error) {
      throw toFerryError(error, log, { where: 'http answer', callId: id })
    }
    return c.json({ answered: id, outcome: body.outcome })
  })

  return routes
}
