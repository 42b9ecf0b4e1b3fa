// The body of one POST to `/mcp`, read once under the size limit and parsed, so the era check and
// the leg that serves the request see the same value, and a body Ferry cannot serve is refused
// with the JSON-RPC error the transports give and a message that says what to send instead.

import type { Readable } from 'node:stream'
import { INVALID_REQUEST, isJsonContentType } from '@modelcontextprotocol/server'
import { MAX_BODY_BYTES } from '../limits.js'

/**
 * Hands each chunk of a Node stream to `take` until the stream ends, or until `take` returns false:
 * then the rest is left unread (paused), so the answer still goes out on the connection and the
 * HTTP server drains or closes it after. Through events, not `for await`, whose async iterator
 * costs more than a small body's read.
 */
export function readChunks(source: Readable, take: (chunk: Uint8Array) => boolean): Promise<void> {
  if (source.readableEnded) return Promise.resolve()
  return new Promise((resolve, reject) => {
    const settle = (error?: Error) => {
      source.off('data', onData)
      source.off('end', onEnd)
      source.off('error', onError)
      source.off('close', onClose)
      if (error === undefined) resolve()
      else reject(error)
    }
    const onData = (chunk: Uint8Array) => {
      if (take(chunk)) return
      settle()
      source.pause()
    }
    const onEnd = () => settle()
    const onError = (error: Error) => settle(error)
    const onClose = () => settle(new Error('the request closed before its body ended'))
    source.on('data', onData)
    source.once('end', onEnd)
    source.once('error', onError)
    source.once('close', onClose)
  })
}

/** A JSON-RPC error answer with no id, as the transports give for a request they refuse. */
export function jsonRpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status })
}

const PARSE_ERROR = -32700
const REFUSED = -32000

/**
 * A body over the limit is still read (and dropped) up to this size before the answer, so a client
 * still sending it reads the 413 instead of meeting a closed connection; past it the connection
 * closes.
 */
const DRAIN_BYTES = 16 * MAX_BODY_BYTES

function tooLarge(drained: boolean): Response {
  const response = jsonRpcError(
    413,
    REFUSED,
    `Payload Too Large: the body is over ${MAX_BODY_BYTES} bytes (1 MiB), the limit of /mcp; send a smaller message`,
  )
  if (!drained) response.headers.set('Connection', 'close')
  return response
}

/** The body as text, or a 413 once it passes the limit; past the drain limit the rest is left unread. */
async function readLimited(
  source: Readable | ReadableStream<Uint8Array> | null,
): Promise<string | Response> {
  if (source === null) return ''
  const chunks: Uint8Array[] = []
  let size = 0
  const take = (value: Uint8Array) => {
    size += value.byteLength
    if (size <= MAX_BODY_BYTES) chunks.push(value)
    return size <= DRAIN_BYTES
  }
  if (source instanceof ReadableStream) {
    for await (const value of source) if (!take(value)) break
  } else await readChunks(source, take)
  if (size > DRAIN_BYTES) return tooLarge(false)
  if (size > MAX_BODY_BYTES) return tooLarge(true)
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * The parsed JSON-RPC message of a POST, or the answer that refuses it. Under @hono/node-server the
 * body is read from Node's request (`incoming`), much cheaper than the fetch Request's stream.
 */
export async function readMessage(
  request: Request,
  incoming?: Readable,
): Promise<{ message: unknown } | { refusal: Response }> {
  if (!isJsonContentType(request.headers.get('content-type'))) {
    return {
      refusal: jsonRpcError(
        415,
        REFUSED,
        'Unsupported Media Type: send one JSON-RPC message as Content-Type: application/json',
      ),
    }
  }
  if (Number(request.headers.get('content-length') ?? 0) > DRAIN_BYTES) {
    return { refusal: tooLarge(false) }
  }
  const text = await readLimited(incoming ?? request.body)
  if (text instanceof Response) return { refusal: text }
  if (text.trim() === '') {
    return {
      refusal: jsonRpcError(
        400,
        PARSE_ERROR,
        'Parse error: the body is empty; send one JSON-RPC message',
      ),
    }
  }
  let message: unknown
  try {
    message = JSON.parse(text)
  } catch (error) {
    return {
      refusal: jsonRpcError(
        400,
        PARSE_ERROR,
        `Parse error: the body is not valid JSON (${(error as Error).message}); send one JSON-RPC message`,
      ),
    }
  }
  if (Array.isArray(message)) {
    return {
      refusal: jsonRpcError(
        400,
        INVALID_REQUEST,
        'Invalid Request: JSON-RPC batches are not accepted; send each message in its own POST',
      ),
    }
  }
  return { message }
}
