// How the CLI reaches the running daemon: the runtime file gives the URL and token, and every
// failure becomes a FerryError with a sentence the user can act on. An answer that is not complete
// (cut off, empty, not JSON, an NDJSON answer without its last line) is a failure here, for
// every command, and never reaches a command as a success.

import { request as httpRequest } from 'node:http'
import { ErrorCode, errorMessage, FerryError, type ErrorCode as Code } from '../errors.js'
import type { ErrorBody } from '../protocol/index.js'
import { readRuntimeFile, type RuntimeInfo } from '../daemon/runtime-file.js'

/** A body already written as JSON, sent as it is. */
export class JsonText {
  constructor(readonly text: string) {}
}

/** The line that ends an NDJSON answer: the outcome, or why there is none. */
export type FinalLine = { result: unknown } | ErrorBody

export interface DaemonClient {
  info: RuntimeInfo
  get<T>(path: string): Promise<T>
  post<T>(path: string, body?: unknown, signal?: AbortSignal): Promise<T>
  send<T>(method: string, path: string, body?: unknown): Promise<T>
  /**
   * POSTs and hands each NDJSON line of the answer to `onLine`, in order. The answer is complete
   * once a line carries `result` or `error`; that line is returned.
   */
  stream<T>(
    path: string,
    body: unknown,
    onLine: (line: T) => Promise<void> | void,
  ): Promise<T & FinalLine>
}

export function notRunning(stateDir: string): FerryError {
  return new FerryError(
    ErrorCode.DaemonNotRunning,
    `Ferry is not running (state directory ${stateDir}); start it with \`ferry start\``,
  )
}

function incomplete(what: string, missing: string, cause?: unknown): FerryError {
  return new FerryError(
    ErrorCode.Internal,
    `no complete answer from Ferry to ${what}: ${missing}; check \`ferry status\` and daemon.log`,
    { cause },
  )
}

function isFinal(line: unknown): boolean {
  return typeof line === 'object' && line !== null && ('result' in line || 'error' in line)
}

/** The daemon's answer to one request: its status, and its body as bytes or as text. */
interface Answer {
  ok: boolean
  status: number
  body: AsyncIterable<Uint8Array>
  text(): Promise<string>
}

/**
 * Sends one request to the daemon; settles once the answer's head has arrived. Through `node:http`:
 * `fetch` in Node 20 compiles its HTTP parser on first use, which costs a short-lived command more
 * than the request does.
 */
function sendRequest(
  info: RuntimeInfo,
  method: string,
  path: string,
  body: unknown,
  signal: AbortSignal | undefined,
  accept: string | undefined,
): Promise<Answer> {
  const payload =
    body === undefined ? undefined : body instanceof JsonText ? body.text : JSON.stringify(body)
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      new URL(`api${path}`, info.url),
      {
        method,
        headers: {
          authorization: `Bearer ${info.token}`,
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
          ...(accept === undefined ? {} : { accept }),
        },
        ...(signal === undefined ? {} : { signal }),
      },
      (incoming) => {
        const status = incoming.statusCode ?? 0
        resolve({
          ok: status >= 200 && status < 300,
          status,
          body: incoming,
          text: async () => {
            let text = ''
            incoming.setEncoding('utf8')
            for await (const chunk of incoming) text += chunk as string
            return text
          },
        })
      },
    )
    outgoing.on('error', reject)
    outgoing.end(payload)
  })
}

export async function connectDaemon(stateDir: string): Promise<DaemonClient> {
  const info = await readRuntimeFile(stateDir)
  if (info === undefined) throw notRunning(stateDir)
  const request = (
    method: string,
    path: string,
    body: unknown,
    signal: AbortSignal | undefined,
    accept?: string,
  ): Promise<Answer> =>
    sendRequest(info, method, path, body, signal, accept).catch((error: unknown) => {
      throw new FerryError(
        ErrorCode.DaemonNotRunning,
        `Ferry is not answering at ${info.url} (pid ${info.pid}): ${reason(error)}; check \`ferry status\` or restart it with \`ferry start\``,
        { cause: error },
      )
    })
  const send = async <T>(method: string, path: string, body?: unknown, signal?: AbortSignal) =>
    readJson<T>(await request(method, path, body, signal), `${method} /api${path}`)
  const stream = async <T>(
    path: string,
    body: unknown,
    onLine: (line: T) => Promise<void> | void,
  ): Promise<T & FinalLine> => {
    const what = `POST /api${path}`
    const response = await request('POST', path, body, undefined, 'application/x-ndjson')
    // Anything but a 2xx throws the error its body names.
    if (!response.ok) await readJson(response, what)
    const decoder = new TextDecoder()
    let buffered = ''
    let final: (T & FinalLine) | undefined
    const take = async (text: string) => {
      let line: T
      try {
        line = JSON.parse(text) as T
      } catch (error) {
        throw incomplete(what, `a line of the answer is not JSON (${text.slice(0, 40)}…)`, error)
      }
      await onLine(line)
      if (isFinal(line)) final = line as T & FinalLine
    }
    try {
      for await (const chunk of response.body) {
        buffered += decoder.decode(chunk, { stream: true })
        const lines = buffered.split('\n')
        buffered = lines.pop() ?? ''
        for (const line of lines) {
          if (final !== undefined) break
          if (line.trim() !== '') await take(line)
        }
        if (final !== undefined) break
      }
    } catch (error) {
      if (error instanceof FerryError) throw error
      throw incomplete(what, `the connection broke (${reason(error)}) before the result`, error)
    }
    if (final !== undefined) return final
    const torn = buffered.trim() === '' ? '' : ', and its last line was cut off'
    throw incomplete(what, `the answer ended before a result or error line${torn}`)
  }
  return {
    info,
    get: (path) => send('GET', path),
    post: (path, body, signal) => send('POST', path, body, signal),
    send: (method, path, body) => send(method, path, body),
    stream,
  }
}

/** The innermost reason of a failed request (an error may wrap the socket's error in its cause). */
function reason(error: unknown): string {
  let inner: unknown = error
  while (inner instanceof Error && inner.cause instanceof Error) inner = inner.cause
  const code = (inner as NodeJS.ErrnoException | undefined)?.code
  return code === undefined ? errorMessage(inner) : code
}

/** The JSON body of a response, or the FerryError its error body describes. */
async function readJson<T>(response: Answer, what: string): Promise<T> {
  let text: string
  try {
    text = await response.text()
  } catch (error) {
    throw incomplete(
      what,
      `the connection broke (${reason(error)}) while the answer was read`,
      error,
    )
  }
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
      error?.message ?? `daemon answered HTTP ${response.status} to ${what}`,
    )
  }
  if (text.trim() === '') throw incomplete(what, `the answer (HTTP ${response.status}) was empty`)
  if (parsed === undefined || parsed === null) {
    throw incomplete(what, `the answer (HTTP ${response.status}) is not JSON`)
  }
  return parsed as T
}
