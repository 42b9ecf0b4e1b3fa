// Tool calls over REST: `POST /api/call` answers with JSON, or streams progress as NDJSON when
// asked; `POST /api/calls/{id}/cancel` stops a running call. A client that disconnects cancels too.

import { randomUUID } from 'node:crypto'
import type { HttpBindings } from '@hono/node-server'
import { Hono } from 'hono'
import { stream } from 'hono/streaming'
import { z } from 'zod'
import type { Ferry } from '../core/ferry.js'
import { ErrorCode, FerryError } from '../errors.js'
import type { CallResponse, CallStreamLine } from '../protocol/index.js'
import { errorBody } from './error-response.js'
import { jsonBody } from './guards.js'

const callBody = z.object({
  tool: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()).optional(),
  timeoutMs: z.number().int().positive().optional(),
  id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .optional(),
})

function parseCallBody(value: unknown): z.infer<typeof callBody> {
  const parsed = callBody.safeParse(value)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : ''
  throw new FerryError(ErrorCode.BadRequest, `${where}${issue?.message ?? 'invalid body'}`)
}

export function callRoutes(ferry: Ferry): Hono {
  const running = new Map<string, AbortController>()
  const routes = new Hono()

  routes.post('/call', async (c) => {
    const body = parseCallBody(await jsonBody(c))
    const id = body.id ?? randomUUID()
    if (running.has(id))
      throw new FerryError(ErrorCode.BadRequest, `a call with id ${id} is running`)
    const controller = new AbortController()
    // A client that goes away before its answer is written cancels the call. The node response's
    // own close event is cheaper than materialising the fetch Request's AbortSignal.
    const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing
    const onGone = () => {
      if (outgoing?.writableFinished !== true) controller.abort()
    }
    outgoing?.once('close', onGone)
    running.set(id, controller)
    const settle = () => {
      running.delete(id)
      outgoing?.off('close', onGone)
    }
    const run = (onProgress?: (line: CallStreamLine) => void) =>
      ferry.call(body.tool, body.arguments ?? {}, {
        signal: controller.signal,
        timeoutMs: body.timeoutMs,
        onProgress: (p) =>
          onProgress?.({
            progress: {
              progress: p.progress,
              ...(p.total === undefined ? {} : { total: p.total }),
              ...(p.message === undefined ? {} : { message: p.message }),
            },
          }),
      })

    if (!(c.req.header('accept') ?? '').includes('application/x-ndjson')) {
      try {
        return c.json<CallResponse>({ id, result: await run() })
      } finally {
        settle()
      }
    }
    c.header('Content-Type', 'application/x-ndjson')
    return stream(c, async (out) => {
      // Lines go out strictly in order, each after the previous write finished.
      let written: Promise<unknown> = Promise.resolve()
      const write = (line: CallStreamLine) =>
        (written = written.then(() => out.write(`${JSON.stringify(line)}\n`)))
      try {
        await write({ call: { id } })
        const result = await run((line) => void write(line))
        await write({ result })
      } catch (error) {
        const known = error instanceof FerryError ? error : undefined
        await write(
          errorBody(known?.code ?? ErrorCode.Internal, known?.message ?? 'internal error'),
        )
      } finally {
        settle()
      }
    })
  })

  routes.post('/calls/:id/cancel', (c) => {
    const id = c.req.param('id')
    const controller = running.get(id)
    if (controller === undefined) {
      throw new FerryError(ErrorCode.NotFound, `no running call with id ${id}`)
    }
    controller.abort()
    return c.json({ cancelled: id })
  })

  return routes
}
