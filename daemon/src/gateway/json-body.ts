// A gateway POST's JSON body, read and parsed once: given to era routing and the SDK's handlers as
// `parsedBody`, so they neither clone the request nor read it again. A body the SDK must judge
// itself (no length, over the limit, not JSON) is left to it, so its error answers stay its own.

import { isJsonContentType } from '@modelcontextprotocol/server'

export interface JsonBody {
  /** The request to hand on: the same one, or a readable copy when the SDK must read it. */
  request: Request
  parsedBody?: unknown
}

export async function jsonBody(request: Request, limit: number): Promise<JsonBody> {
  if (request.method !== 'POST' || !isJsonContentType(request.headers.get('content-type'))) {
    return { request }
  }
  const length = Number(request.headers.get('content-length'))
  if (!Number.isSafeInteger(length) || length <= 0 || length > limit) return { request }
  const text = await request.text()
  try {
    return { request, parsedBody: JSON.parse(text) as unknown }
  } catch {
    return {
      request: new Request(request.url, { method: 'POST', headers: request.headers, body: text }),
    }
  }
}
