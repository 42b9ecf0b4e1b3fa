// The requests each gateway client has in flight, so that revoking its token cuts them: an answer
// not yet sent is replaced by the refusal of a revoked token, and a stream already flowing stops.

import { jsonRpcError } from './request-body.js'

/** MCP's generic server error code, as the route uses for refusals. */
const REFUSED = -32000

export class InFlight {
  private readonly byClient = new Map<string, Set<AbortController>>()

  /** A request of `client` starts: its signal fires when the client's token is revoked. */
  begin(client: string): { signal: AbortSignal; end: () => void } {
    const controller = new AbortController()
    const open = this.byClient.get(client) ?? new Set<AbortController>()
    open.add(controller)
    this.byClient.set(client, open)
    return {
      signal: controller.signal,
      end: () => {
        open.delete(controller)
        if (open.size === 0 && this.byClient.get(client) === open) this.byClient.delete(client)
      },
    }
  }

  /** Cuts every request of `client`. */
  cut(client: string): void {
    const open = this.byClient.get(client)
    this.byClient.delete(client)
    for (const controller of open ?? []) controller.abort()
  }
}

function revoked(): Response {
  const response = jsonRpcError(
    401,
    REFUSED,
    'this gateway token was revoked while the request ran; nothing of it is delivered',
  )
  response.headers.set('WWW-Authenticate', 'Bearer realm="ferry-gateway"')
  return response
}

/**
 * `response` as it goes out while `signal` has not fired: once it fires, an answer not sent yet is
 * the refusal of a revoked token, and a body still flowing ends in an error (the connection is cut).
 * `end` runs once the answer is done with, however it ends.
 */
export function cutWhenRevoked(response: Response, signal: AbortSignal, end: () => void): Response {
  if (signal.aborted) {
    void response.body?.cancel().catch(() => {})
    end()
    return revoked()
  }
  const body = response.body
  // A whole answer was made before any revocation: only a stream still open can outlive one.
  const open =
    response.headers.get('content-type')?.startsWith('text/event-stream') === true &&
    !response.headers.has('content-length')
  if (body === null || !open) {
    end()
    return response
  }
  const reader = body.getReader()
  const aborted = new Promise<'revoked'>((resolve) => {
    if (signal.aborted) resolve('revoked')
    signal.addEventListener('abort', () => resolve('revoked'), { once: true })
  })
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await Promise.race([reader.read(), aborted])
      if (next === 'revoked' || signal.aborted) {
        void reader.cancel().catch(() => {})
        end()
        controller.error(new Error('gateway token revoked'))
      } else if (next.done) {
        end()
        controller.close()
      } else controller.enqueue(next.value)
    },
    cancel: (reason) => {
      end()
      return reader.cancel(reason)
    },
  })
  return new Response(stream, { status: response.status, headers: response.headers })
}
