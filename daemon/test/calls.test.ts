import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CallStreamLine } from '../src/protocol/index.js'
import { PROGRESS_BURST } from '../src/sessions/progress-coalescer.js'
import { WORK_PER_TURN } from '../src/turns.js'
import { cleanup, fixture, readJsonLines, tempDir, waitFor, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'

interface StreamedCall {
  lines: CallStreamLine[]
  done: Promise<void>
}

/** Starts a call with NDJSON streaming and collects its lines as they arrive. */
function streamCall(daemon: Daemon, body: Record<string, unknown>): StreamedCall {
  const lines: CallStreamLine[] = []
  const done = (async () => {
    const response = await daemon.api('/call', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' },
      body: JSON.stringify(body),
    })
    expect(response.headers.get('content-type')).toContain('application/x-ndjson')
    const decoder = new TextDecoder()
    let buffered = ''
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      buffered += decoder.decode(chunk, { stream: true })
      const parts = buffered.split('\n')
      buffered = parts.pop() ?? ''
      for (const part of parts)
        if (part.trim() !== '') lines.push(JSON.parse(part) as CallStreamLine)
    }
  })()
  return { lines, done }
}

const last = (lines: CallStreamLine[]) => lines[lines.length - 1]

for (const era of ['legacy', 'modern'] as const) {
  describe(`tool execution on a ${era} connection`, () => {
    let daemon: Daemon
    let record: string
    const tool = (name: string) => `mcp_fx_${name}`

    beforeAll(async () => {
      record = `${await tempDir()}/record.jsonl`
      daemon = await startInProcess({
        mcpServers: {
          fx: fixture(['--era', era === 'modern' ? 'modern' : 'legacy', '--record', record], {
            versionNegotiation: era === 'modern' ? 'auto' : 'legacy',
          }),
        },
      })
      expect(await daemon.waitForStatus('fx', 'ready')).toMatchObject({ era })
    })
    afterAll(cleanup)

    it('streams progress to the caller before the result', async () => {
      const call = streamCall(daemon, { tool: tool('slow'), arguments: { steps: 4, delayMs: 50 } })
      await call.done
      const values = call.lines.flatMap((line) => ('progress' in line ? [line.progress] : []))
      expect(values.map((p) => p.progress)).toEqual([1, 2, 3, 4])
      expect(values[0]).toEqual({ progress: 1, total: 4, message: 'step 1/4' })
      expect(call.lines[0]).toMatchObject({ call: { id: expect.any(String) } })
      expect(last(call.lines)).toMatchObject({
        result: { content: [{ type: 'text', text: 'done' }] },
      })
    })

    it('keeps progress sent just before the result, which arrives in the same read', async () => {
      // More messages than one turn of the event loop handles, and each progress stored.
      const steps = PROGRESS_BURST - 1
      expect(steps).toBeGreaterThan(WORK_PER_TURN)
      for (let round = 0; round < 5; round++) {
        const call = streamCall(daemon, { tool: tool('slow'), arguments: { steps, delayMs: 0 } })
        await call.done
        const values = call.lines.flatMap((line) => ('progress' in line ? [line.progress] : []))
        expect(values.map((p) => p.progress)).toEqual(
          Array.from({ length: steps }, (_, i) => i + 1),
        )
        expect(call.lines.findIndex((line) => 'result' in line)).toBe(call.lines.length - 1)
      }
    })

    it('cancels a running call on the server and reports it as cancelled, not as a timeout', async () => {
      const call = streamCall(daemon, {
        tool: tool('slow'),
        arguments: { steps: 100, delayMs: 50 },
        id: `cancel-${era}`,
      })
      await waitFor(() => call.lines.some((line) => 'progress' in line), 10_000, 'first progress')
      const cancel = await daemon.api(`/calls/cancel-${era}/cancel`, { method: 'POST' })
      expect(cancel.status).toBe(200)
      await call.done
      expect(last(call.lines)).toMatchObject({ error: { code: 'tool_cancelled' } })
      await waitFor(
        async () => (await readJsonLines(record)).some((line) => line.method === 'cancelled'),
        5000,
        'the server to see the cancellation',
      )
    })

    it('cancels the call on the server when the HTTP client goes away', async () => {
      const count = async (method: string) =>
        (await readJsonLines(record)).filter((l) => l.method === method).length
      const cancelledBefore = await count('cancelled')
      const callsBefore = await count('tools/call')
      const controller = new AbortController()
      const request = daemon
        .api('/call', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ tool: tool('slow'), arguments: { steps: 100, delayMs: 50 } }),
          signal: controller.signal,
        })
        .catch((error: unknown) => error)
      await waitFor(
        async () => (await count('tools/call')) > callsBefore,
        5000,
        'the call to reach the server',
      )
      controller.abort()
      expect(await request).toBeInstanceOf(Error)
      await waitFor(
        async () => (await count('cancelled')) > cancelledBefore,
        5000,
        'the server to see the cancellation',
      )
    })

    it('answers 404 when cancelling a call that is not running', async () => {
      const response = await daemon.api('/calls/nothing-here/cancel', { method: 'POST' })
      expect(response.status).toBe(404)
    })

    it('times out a call that makes no progress within its timeout', async () => {
      const started = Date.now()
      const call = streamCall(daemon, {
        tool: tool('slow'),
        arguments: { steps: 2, delayMs: 2000 },
        timeoutMs: 300,
      })
      await call.done
      expect(last(call.lines)).toMatchObject({ error: { code: 'tool_timeout' } })
      const error = last(call.lines) as { error: { message: string } }
      expect(error.error.message).toContain('timed out after 300 ms')
      expect(Date.now() - started).toBeLessThan(1900)
    })

    it('resets the timeout on progress, so a long call with steady progress finishes', async () => {
      const call = streamCall(daemon, {
        tool: tool('slow'),
        // 800 ms in all, past the 600 ms timeout; each step leaves 6× slack for a loaded machine.
        arguments: { steps: 8, delayMs: 100 },
        timeoutMs: 600,
      })
      await call.done
      expect(last(call.lines)).toMatchObject({
        result: { content: [{ type: 'text', text: 'done' }] },
      })
    })

    it('still stops a call with steady progress at its maximum total time', async () => {
      const call = streamCall(daemon, {
        tool: tool('slow'),
        // 5 s of steps against a total limit of 10 × 300 ms; each step leaves 6× slack.
        arguments: { steps: 100, delayMs: 50 },
        timeoutMs: 300,
      })
      await call.done
      const error = last(call.lines) as { error: { code: string; message: string } }
      expect(error.error.code).toBe('tool_timeout')
      expect(error.error.message).toContain('total limit of 3000 ms')
    })

    it('passes the model-visible result through unchanged, every content kind included', async () => {
      const response = await daemon.api('/call', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tool: tool('rich') }),
      })
      const body = (await response.json()) as { result: Record<string, unknown> }
      const kinds = (body.result.content as Array<{ type: string }>).map((block) => block.type)
      expect(kinds).toEqual(['text', 'image', 'audio', 'resource_link', 'resource'])
      expect(body.result.structuredContent).toEqual({ ok: true })
      expect(body.result.isError).toBe(false)
    })
  })
}
