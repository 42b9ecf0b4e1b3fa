// A legacy session's event stream can be resumed: each stream opens with a priming event id and a
// `retry` hint, and a client whose POST stream broke mid-call gets the rest of it, the call's
// answer included, by reconnecting with `Last-Event-ID`.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanup, fixture, waitFor, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'
import { createToken, mcpUrl, openLegacySession, sessionHeaders } from './gateway-wire.js'
import { sseMessages } from './sse.js'

/** Reads SSE events (id and data) from `body` until `enough` says so; then the reader lets go. */
async function readEvents(
  body: ReadableStream<Uint8Array>,
  enough: (events: Array<{ id?: string; data: string; retry?: string }>) => boolean,
) {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  const events: Array<{ id?: string; data: string; retry?: string }> = []
  let buffer = ''
  try {
    while (!enough(events)) {
      const { value, done } = await reader.read()
      if (done) break
      buffer += decoder.decode(value, { stream: true })
      let end: number
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        const event: { id?: string; data: string; retry?: string } = { data: '' }
        for (const line of block.split('\n')) {
          if (line.startsWith('id:')) event.id = line.slice(3).trim()
          else if (line.startsWith('retry:')) event.retry = line.slice(6).trim()
          else if (line.startsWith('data:')) event.data += line.slice(5).trim()
        }
        events.push(event)
      }
    }
  } finally {
    await reader.cancel().catch(() => {})
  }
  return events
}

describe('resuming a legacy session stream', () => {
  let daemon: Daemon
  let token: string

  beforeAll(async () => {
    daemon = await startInProcess({ mcpServers: { x: fixture([]) } })
    await daemon.waitForStatus('x', 'ready')
    token = await createToken(daemon, 'resumer')
  })
  afterAll(cleanup)

  it("primes each stream, and replays the rest of a broken call's stream, its answer included", async () => {
    const session = await openLegacySession(daemon, token)
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
      ...sessionHeaders(session),
    }
    const response = await fetch(mcpUrl(daemon), {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: {
          name: 'mcp_x_slow',
          arguments: { steps: 4, delayMs: 150 },
          _meta: { progressToken: 'p' },
        },
      }),
    })
    // The priming event and the first progress; then the client drops the stream.
    const seen = await readEvents(response.body as ReadableStream<Uint8Array>, (events) =>
      events.some((event) => event.data.includes('notifications/progress')),
    )
    expect(seen[0]).toMatchObject({ data: '', retry: '1000' })
    expect(seen[0]?.id).toBeDefined()
    const last = seen.at(-1)?.id as string
    // Until the daemon has seen the stream go, the stream is still taken (409), as for any client.
    const resumed = await waitFor(
      async () => {
        const again = await fetch(mcpUrl(daemon), {
          method: 'GET',
          headers: { ...headers, accept: 'text/event-stream', 'last-event-id': last },
        })
        if (again.status !== 409) return again
        await again.body?.cancel()
        return undefined
      },
      10_000,
      'the broken stream to be free to resume',
    )
    expect(resumed.status).toBe(200)
    const rest = await readEvents(resumed.body as ReadableStream<Uint8Array>, (events) =>
      events.some((event) => event.data.includes('"id":7')),
    )
    const messages = sseMessages(rest.map((event) => `data: ${event.data}`).join('\n'))
    expect(messages.at(-1)).toMatchObject({
      id: 7,
      result: { content: [{ type: 'text', text: 'done' }] },
    })
    // What the client had seen is not sent again, and nothing after it is missing.
    const values = (messages: Array<Record<string, unknown>>) =>
      messages
        .filter((message) => message.method === 'notifications/progress')
        .map((message) => (message.params as { progress: number }).progress)
    const before = values(sseMessages(seen.map((event) => `data: ${event.data}`).join('\n')))
    const after = values(messages)
    expect([...before, ...after]).toEqual([1, 2, 3, 4])
  })
})
