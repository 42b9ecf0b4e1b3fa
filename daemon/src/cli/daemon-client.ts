// How the CLI reaches the running daemon: the runtime file gives the URL and token, and every
// failure becomes a FerryError with a sentence the user can act on.

import { ErrorCode, FerryError, type ErrorCode as Code } from '../errors.js'
import type { ErrorBody } from '../protocol/index.js'
import { readRuntimeFile, type RuntimeInfo } from '../daemon/runtime-file.js'

export interface DaemonClient {
  info: RuntimeInfo
  get<T>(path: string): Promise<T>
  post<T>(path: string, body?: unknown, signal?: AbortSignal): Promise<T>
  send<T>(method: string, path: string, body?: unknown): Promise<T>
  /** POSTs and hands each NDJSON line of the answer to `onLine`, in order. */
  stream<T>(path: string, body: unknown, onLine: (line: T) => Promise<void> | void): Promise<void>
}

export function notRunning(stateDir: string): FerryError {
  return new FerryError(
    ErrorCode.DaemonNotRunning,
    `Ferry is not running (state directory ${stateDir}); start it with \`ferry start\``,
  )
}

export async function connectDaemon(stateDir: string): Promise<DaemonClient> {
  const info = await readRuntimeFile(stateDir)
  if (info === undefined) throw notRunning(stateDir)
  const request = async (
    method: string,
    path: string,
    body: unknown,
    signal: AbortSignal | undefined,
    accept?: string,
  ): Promise<Response> => {
    try {
      return await fetch(new URL(`api${path}`, info.url), {
        method,
        headers: {
          authorization: `Bearer ${info.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(accept === undefined ? {} : { accept }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: signal ?? null,
      })
    } catch (error) {
      throw new FerryError(
        ErrorCode.DaemonNotRunning,
        `Ferry is not answering at ${info.url} (pid ${info.pid}); check \`ferry status\` or restart it with \`ferry start\``,
        { cause: error },
      )
    }
  }
  const send = async <T>(method: string, path: string, body?: unknown, signal?: AbortSignal) =>
    readJson<T>(await request(method, path, body, signal))
  const stream = async <T>(
    path: string,
    body: unknown,
    onLine: (line: T) => Promise<void> | void,
  ) => {
    const response = await request('POST', path, body, undefined, 'application/x-ndjson')
    if (!response.ok || response.body === null) {
      await readJson(response)
      return
    }
    const decoder = new TextDecoder()
    let buffered = ''
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      buffered += decoder.decode(chunk, { stream: true })
      const lines = buffered.split('\n')
      buffered = lines.pop() ?? ''
      for (const line of lines) if (line.trim() !== '') await onLine(JSON.parse(line) as T)
    }
  }
  return {
    info,
    get: (path) => send('GET', path),
    post: (path, body, signal) => send('POST', path, body, signal),
    send: (method, path, body) => send(method, path, body),
    stream,
  }
}

/** The JSON body of a response, or the FerryError its error body describes. */
async function readJson<T>(response: Response): Promise<T> {
  const text = await response.text()
  let parsed: unknown
  try {
    parsed = text === '' ? undefined : JSON.parse(text)
  } catch {
    parsed = undefined
  }
  if (!response.ok) {
    const error = (parsed as Partial<ErrorBody> | undefined)?.error
    throw new FerryError(
      (error?.code as Code | undefined) ?? ErrorCode.Internal,
      error?.message ?? `daemon answered HTTP ${response.status}`,
    )
  }
  return parsed as T
}
