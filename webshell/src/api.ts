// Calls to the daemon's REST API with the bearer token; failures carry the daemon's message.

import type { ErrorBody } from '../../daemon/src/protocol/index.js'

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

export async function api<T>(
  token: string,
  path: string,
  method = 'GET',
  body?: unknown,
): Promise<T> {
  const response = await fetch(`/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? null : JSON.stringify(body),
  })
  const answer = (await response.json().catch(() => null)) as unknown
  if (!response.ok) {
    const message =
      (answer as Partial<ErrorBody> | null)?.error?.message ?? `HTTP ${response.status}`
    throw new ApiError(response.status, message)
  }
  return answer as T
}
