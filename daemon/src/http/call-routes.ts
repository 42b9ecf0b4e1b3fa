// Tool calls over REST, always inside a session (the workspace's default unless one is named):
// `POST /api/call` answers with JSON, or streams the call's own events as NDJSON when asked;
// `POST /api/calls/{id}/cancel` stops a call and `POST /api/calls/{id}/answer` answers its
// confirmation; an NDJSON caller also sees its call's questions (`input`, `inputResolved`).
// A client that disconnects cancels its call.

import type { HttpBindings } from '@hono/node-server'
import { Hono } from 'hono'
import { stream } from 'hono/streaming'
import { z } from 'zod'
import { randomHex } from '../ids.js'
import { toFerryError, toWireError } from '../errors.js'
import type { Log } from '../log.js'
import type { CallResponse, CallStreamLine, ClientRef, TranscriptEvent } from '../protocol/index.js'
import type { SessionsApi } from '../service/ferry-service.js'
import { errorBody } from './error-response.js'
import { jsonBody, parseBody } from './guards.js'
import { callFields, clientSchema, outcomeSchema } from '../protocol/wire.js'

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
    id: randomHex(8),
    kind: client?.kind ?? 'api',
    label: client?.label ?? 'REST API',
  }
}

/** What an NDJSON caller is told of one of its call's events; nothing for the rest. */
function streamLine(event: TranscriptEvent): CallStreamLine | undefined {
  switch (event.type) {
    case 'call.progress': {
      const { progress, total, message } = event
      return {
        progress: {
          progress,
          ...(total === undefined ? {} : { total }),
          ...(message === undefined ? {} : { message }),
        },
      }
    }
    case 'input.requested': {
      const { seq: _seq, time: _time, client: _client, truncated: _truncated, ...input } = event
      return { input }
    }
    case 'input.resolved': {
      const { inputId, action } = event
      return { inputResolved: { inputId, action, by: event.client?.label ?? null } }
    }
    case 'confirmation.requested':
      return { confirmation: { callId: event.callId, tool: event.tool, server: event.server } }
    case 'confirmation.resolved':
      return {
        confirmed: {
          callId: event.callId,
          outcome: event.outcome,
          by: event.client?.label ?? 'Ferry',
        },
      }
    default:
      return undefined
  }
}

export function callRoutes(sessions: SessionsApi, log: Log): Hono {
  const routes = new Hono()

  routes.post('/call', async (c) => {
    const body = parseBody(callBody, await jsonBody(c))
    const client = requestClient(body.client)
    const streaming = (c.req.header('accept') ?? '').includes('application/x-ndjson')
    // A client that goes away before its answer is written cancels the call.
    const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing
    const gone = new AbortController()
    const onClose = () => {
      if (outgoing?.writableFinished !== true) gone.abort()
    }
    outgoing?.once('close', onClose)
    const call = {
      session: body.session,
      tool: body.tool,
      arguments: body.arguments ?? {},
      client,
      timeoutMs: body.timeoutMs,
      callId: body.id,
      preapproved: body.yes,
      callerCanAnswer: streaming && body.interactive === true,
      callerAnswersInputs: streaming && body.interactive === true,
      signal: gone.signal,
    }

    if (!streaming) {
      try {
        const { callId, session, result } = await sessions.call(call)
        return c.json<CallResponse>({ id: callId, session: session.id, result })
      } finally {
        outgoing?.off('close', onClose)
      }
    }
    c.header('Content-Type', 'application/x-ndjson')
    return stream(c, async (out) => {
      // Lines go out strictly in order, each after the previous write finished.
      let written: Promise<unknown> = Promise.resolve()
      const write = (line: CallStreamLine) =>
        (written = written.then(() => out.write(`${JSON.stringify(line)}\n`)))
      let started: { callId: string; session: string } | undefined
      try {
        const { result } = await sessions.call({
          ...call,
          onStart: ({ callId, session }) => {
            started = { callId, session: session.id }
            void write({ call: { id: callId, session: session.id } })
          },
          onEvent: (event) => {
            const line = streamLine(event)
            if (line !== undefined) void write(line)
          },
        })
        await write({ result })
      } catch (error) {
        const wire = toWireError(error, log, {
          where: 'ndjson call',
          session: started?.session,
          callId: started?.callId,
        })
        await write(errorBody(wire.code, wire.message))
      } finally {
        outgoing?.off('close', onClose)
      }
    })
  })

  routes.post('/calls/:id/cancel', (c) => {
    const id = c.req.param('id')
    sessions.cancel(id, requestClient(undefined))
    return c.json({ cancelled: id })
  })

  routes.post('/calls/:id/answer', async (c) => {
    const body = parseBody(answerBody, await jsonBody(c))
    const id = c.req.param('id')
    try {
      await sessions.answer(id, body.outcome, requestClient(body.client))
    } catch (error) {
      throw toFerryError(error, log, { where: 'http answer', callId: id })
    }
    return c.json({ answered: id, outcome: body.outcome })
  })

  return routes
}
