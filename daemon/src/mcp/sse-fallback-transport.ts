// A bare `url`: Streamable HTTP first, then the older HTTP+SSE transport when the server answers
// the initialize POST with a 4xx other than 401/403, as the MCP spec's backwards-compatibility rule
// says and Cursor and Claude Code do.

import { isInitializeRequest, SdkError, type Transport } from '@modelcontextprotocol/client'
import { httpFailureOf, type HttpFailure } from './http-failures.js'

type SendArgs = Parameters<Transport['send']>

export class SseFallbackTransport implements Transport {
  onclose?: Transport['onclose']
  onerror?: Transport['onerror']
  onmessage?: Transport['onmessage']
  private current: Transport
  private fellBack = false
  private protocolVersion: string | undefined

  constructor(
    http: Transport,
    private readonly sse: () => Transport,
    private readonly onFallback: (refused: HttpFailure) => void,
  ) {
    this.current = this.wire(http)
  }

  get sessionId(): string | undefined {
    return this.current.sessionId
  }

  setProtocolVersion = (version: string): void => {
    this.protocolVersion = version
    this.current.setProtocolVersion?.(version)
  }

  start(): Promise<void> {
    return this.current.start()
  }

  async send(...[message, options]: SendArgs): Promise<void> {
    try {
      await this.current.send(message, options)
    } catch (error) {
      const status = fallbackStatus(error)
      const refused = httpFailureOf(error)
      if (this.fellBack || status === undefined || refused === undefined) throw error
      if (!isInitializeRequest(message)) throw error
      this.fellBack = true
      const http = this.current
      // The abandoned transport's close is not this connection's close.
      http.onclose = undefined
      http.onerror = undefined
      await http.close().catch(() => {})
      this.onFallback(refused)
      this.current = this.wire(this.sse())
      if (this.protocolVersion !== undefined)
        this.current.setProtocolVersion?.(this.protocolVersion)
      await this.current.start()
      await this.current.send(message, options)
    }
  }

  close(): Promise<void> {
    return this.current.close()
  }

  private wire(transport: Transport): Transport {
    transport.onmessage = (message, extra) => this.onmessage?.(message, extra)
    transport.onerror = (error) => {
      // The failed initialize POST is reported by `send`, which then falls back.
      if (!this.fellBack && fallbackStatus(error) !== undefined) return
      this.onerror?.(error)
    }
    transport.onclose = () => this.onclose?.()
    return transport
  }
}

/** The HTTP status that calls for SSE: a 4xx, except the authentication ones SSE would meet too. */
function fallbackStatus(error: unknown): number | undefined {
  if (!(error instanceof SdkError)) return undefined
  const status = (error.data as { status?: unknown } | undefined)?.status
  if (typeof status !== 'number' || status < 400 || status > 499) return undefined
  return status === 401 || status === 403 ? undefined : status
}
