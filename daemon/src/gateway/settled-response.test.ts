import { Server, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server'
import { describe, expect, it } from 'vitest'
import { settledResponse } from './settled-response.js'

const encoder = new TextEncoder()
const decoder = new TextDecoder()
const sse = { 'content-type': 'text/event-stream' }

function controlledStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>
  let cancelled: unknown = 'not cancelled'
  const stream = new ReadableStream<Uint8Array>({
    start: (c) => (controller = c),
    cancel: (reason) => {
      cancelled = reason
    },
  })
  return { stream, controller, cancelled: () => cancelled }
}

async function nextText(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
  const next = await reader.read()
  return next.done ? '<end>' : decoder.decode(next.value)
}

/** A legacy session transport serving `echo` at once and `wait` once `release` is called. */
async function sessionTransport(release: Promise<void>) {
  const server = new Server({ name: 't', version: '0' }, { capabilities: { tools: {} } })
  server.setRequestHandler('tools/list', () => ({ tools: [] }))
  server.setRequestHandler('tools/call', async (request, ctx) => {
    if (request.params.name === 'wait') {
      await ctx.mcpReq.notify({
        method: 'notifications/progress',
        params: { progressToken: 1, progress: 1, message: 'waiting' },
      })
      await release
    }
    return { content: [{ type: 'text', text: request.params.name }] }
  })
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => 'session',
  })
  await server.connect(transport)
  const post = (body: unknown) =>
    transport.handleRequest(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': 'session',
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify(body),
      }),
    )
  const init = await post({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'c', version: '0' },
    },
  })
  await init.text()
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' })
  return { post, close: () => server.close() }
}

describe('settledResponse', () => {
  it('sends a quick call answered by the SDK transport as one body with its length', async () => {
    const session = await sessionTransport(Promise.resolve())
    const response = await settledResponse(
      await session.post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo' } }),
    )
    const text = await response.text()
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    expect(response.headers.get('content-length')).toBe(String(encoder.encode(text).byteLength))
    expect(text).toContain('"text":"echo"')
    await session.close()
  })

  it('hands on a call that reports progress while it runs, its progress before its result', async () => {
    let release!: () => void
    const session = await sessionTransport(new Promise<void>((resolve) => (release = resolve)))
    const response = await settledResponse(
      await session.post({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'wait', _meta: { progressToken: 1 } },
      }),
    )
    expect(response.headers.get('content-length')).toBeNull()
    const reader = (response.body as ReadableStream<Uint8Array>).getReader()
    // The call is still held: its progress can only have come through while it runs.
    expect(await nextText(reader)).toContain('"message":"waiting"')
    release()
    expect(await nextText(reader)).toContain('"text":"wait"')
    expect(await nextText(reader)).toBe('<end>')
    await session.close()
  })

  it('hands on a stream that sends nothing within the wait, and what it sends later follows', async () => {
    const source = controlledStream()
    const response = await settledResponse(new Response(source.stream, { headers: sse }), 1)
    const reader = (response.body as ReadableStream<Uint8Array>).getReader()
    source.controller.enqueue(encoder.encode('event: one\n\n'))
    expect(await nextText(reader)).toBe('event: one\n\n')
    source.controller.close()
    expect(await nextText(reader)).toBe('<end>')
  })

  it('passes a cancel of the handed-on stream to the stream it came from', async () => {
    const source = controlledStream()
    source.controller.enqueue(encoder.encode('event: one\n\n'))
    const response = await settledResponse(new Response(source.stream, { headers: sse }))
    const reader = (response.body as ReadableStream<Uint8Array>).getReader()
    expect(await nextText(reader)).toBe('event: one\n\n')
    await reader.cancel('client gone')
    expect(source.cancelled()).toBe('client gone')
  })

  it('leaves an answer that is not an event stream as it is', async () => {
    const response = Response.json({ ok: true }, { status: 404 })
    expect(await settledResponse(response)).toBe(response)
  })
})
