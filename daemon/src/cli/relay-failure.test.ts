import { SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client'
import { describe, expect, it } from 'vitest'
import { ErrorCode, FerryError } from '../errors.js'
import { BRIDGE_ERROR, failureOf } from './relay-failure.js'

const refused = (detail: string) => `refused: ${detail}`

function http(status: number, body: unknown): SdkHttpError {
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  return new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'Error POSTing', { status, text })
}

const rpc = (code: number, message: string) => ({
  jsonrpc: '2.0',
  id: null,
  error: { code, message },
})

describe('failureOf', () => {
  it('calls a 401 refused, quoting what Ferry said', () => {
    expect(failureOf(http(401, rpc(-32000, 'unknown or revoked gateway token')), refused)).toEqual({
      kind: 'refused',
      code: BRIDGE_ERROR,
      message: 'refused: unknown or revoked gateway token',
    })
  })

  it('tells a session that ended from a 404 with another reason, keeping its code', () => {
    expect(failureOf(http(404, rpc(-32001, 'Session not found')), refused).kind).toBe(
      'session-gone',
    )
    expect(failureOf(http(404, rpc(-32000, 'the gateway is off')), refused)).toEqual({
      kind: 'other',
      code: -32000,
      message: 'Ferry answered HTTP 404: the gateway is off',
    })
  })

  it('passes on the code of a refusal and the text of a body that is not JSON-RPC', () => {
    expect(failureOf(http(400, rpc(-32022, 'Unsupported protocol version')), refused).code).toBe(
      -32022,
    )
    expect(failureOf(http(502, 'Bad Gateway'), refused)).toEqual({
      kind: 'other',
      code: BRIDGE_ERROR,
      message: 'Ferry answered HTTP 502: Bad Gateway',
    })
  })

  it('retries only a connection that was refused, before anything was sent', () => {
    const socket = (code: string) =>
      new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) })
    expect(failureOf(socket('ECONNREFUSED'), refused).kind).toBe('connection-refused')
    const reset = failureOf(socket('ECONNRESET'), refused)
    expect(reset.kind).toBe('other')
    expect(reset.message).toContain('Ferry is not answering (ECONNRESET)')
  })

  it('gives a FerryError its own sentence', () => {
    const error = new FerryError(ErrorCode.DaemonNotRunning, 'Ferry is not running')
    expect(failureOf(error, refused)).toEqual({
      kind: 'other',
      code: BRIDGE_ERROR,
      message: 'ferry mcp: Ferry is not running',
    })
  })
})
