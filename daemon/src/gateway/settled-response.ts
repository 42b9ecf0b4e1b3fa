// A gateway answer whose event stream is complete soon after it is returned (a quick call) goes
// out as one body with its length: one socket write instead of the headers, the event and the end
// apart. A stream still open then (progress, a confirmation) is handed on as it flows.

/** How long an event stream's first event is waited for before its headers go out without it. */
export const SETTLE_MS = 100

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0))
  let offset = 0
  for (const chunk of chunks) {
    out.set(chunk, offset)
    offset += chunk.byteLength
  }
  return out
}

export async function settledResponse(response: Response, ms = SETTLE_MS): Promise<Response> {
  const body = response.body
  if (body === null || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
    return response
  }
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let pending = reader.read()
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(resolve, ms, 'late')))
  // Then only what is already there: the end follows the last event in the same turn.
  const now = () => new Promise<'late'>((resolve) => setImmediate(resolve, 'late'))
  try {
    for (let next = await Promise.race([pending, late]); next !== 'late';) {
      if (next.done) {
        const whole = concat(chunks)
        const headers = new Headers(response.headers)
        headers.set('content-length', String(whole.byteLength))
        return new Response(whole as Uint8Array<ArrayBuffer>, { status: response.status, headers })
      }
      chunks.push(next.value as Uint8Array)
      pending = reader.read()
      next = await Promise.race([pending, now()])
    }
  } catch {
    // A stream that failed is handed on: reading it again reports the failure as before.
  } finally {
    clearTimeout(timer)
  }
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk)
    },
    async pull(controller) {
      const next = await pending
      if (next.done) controller.close()
      else {
        controller.enqueue(next.value as Uint8Array)
        pending = reader.read()
      }
    },
    cancel: (reason) => reader.cancel(reason),
  })
  return new Response(stream, { status: response.status, headers: response.headers })
}
