// What Ferry sees of one server by name, across its connections: the protocol trace, the log
// level and how it reaches the server (legacy `logging/setLevel`, or the 2026-07-28 per-request
// `_meta` level stamped on every request), and the kept stderr and MCP log lines.

import { LOG_LEVEL_META_KEY, type Client } from '@modelcontextprotocol/client'
import type { JSONRPCMessage, LoggingMessageNotificationParams } from '@modelcontextprotocol/client'
import { ErrorCode, FerryError, errorMessage } from '../errors.js'
import type { Log } from '../log.js'
import {
  logLevelSchema,
  type LogLevel,
  type LogLevelResponse,
  type ServerLogLine,
} from '../protocol/index.js'
import { ProtocolTrace, cutStrings, CUT_KEY } from './protocol-trace.js'

/** Lines (stderr and MCP messages together) kept per server. */
export const LOG_LINES_KEPT = 1000
/** An MCP message's `data` larger than this once cut is kept as a shortened preview. */
export const LOG_DATA_BYTES = 8 * 1024

const SEVERITY = new Map(logLevelSchema.options.map((level, index) => [level, index]))

export function atLeast(level: LogLevel, threshold: LogLevel): boolean {
  return (SEVERITY.get(level) ?? 0) >= (SEVERITY.get(threshold) ?? 0)
}

export type McpLogLine = Extract<ServerLogLine, { source: 'mcp' }>
export type LogLineListener = (line: ServerLogLine) => void

/** What one transport hands the observer: every message each way, outgoing ones rewritable. */
export interface ObservedTransport {
  outgoing(message: JSONRPCMessage): JSONRPCMessage
  incoming(message: JSONRPCMessage): void
}

export class ServerObserver {
  readonly trace = new ProtocolTrace()
  private configured: LogLevel
  private override: LogLevel | undefined
  private client: Client | undefined
  private readonly lines: ServerLogLine[] = []
  private seq = 0
  private readonly listeners = new Set<LogLineListener>()

  constructor(
    readonly server: string,
    level: LogLevel,
    /** `openCalls`: the server's `tools/call` requests unanswered when the message came. */
    private readonly onMessage: (line: McpLogLine, openCalls: number) => void,
    private readonly log: Log,
  ) {
    this.configured = level
  }

  get level(): LogLevel {
    return this.override ?? this.configured
  }

  /** The settings' level; a change replaces any level set at run time, and is applied at once. */
  async configure(level: LogLevel): Promise<void> {
    if (level === this.configured) return
    this.configured = level
    this.override = undefined
    await this.push().catch((error: unknown) => this.noteRefusal(error))
  }

  /** Sets the level at run time; a legacy server that declares logging is told at once. */
  async setLevel(level: LogLevel): Promise<LogLevelResponse> {
    const before = this.override
    this.override = level
    try {
      await this.push()
    } catch (error) {
      this.override = before
      throw new FerryError(
        ErrorCode.UpstreamError,
        `server "${this.server}" refused logging/setLevel ${level}: ${errorMessage(error)}`,
      )
    }
    return this.describe()
  }

  describe(): LogLevelResponse {
    return {
      server: this.server,
      level: this.level,
      source: this.override === undefined ? 'settings' : 'runtime',
      delivery: this.delivery(),
    }
  }

  /**
   * One transport of the server: its messages go to the trace, and on a 2026-07-28 connection
   * every request carries the level in `_meta` (the SDK refuses `logging/setLevel` there).
   */
  tap(era: () => 'legacy' | 'modern' | undefined): ObservedTransport {
    const tap = this.trace.tap()
    // `tools/call` requests sent and not answered yet, in wire order: a log message is a call's
    // only while exactly that call is open on the wire.
    const openCalls = new Set<string | number>()
    return {
      outgoing: (message) => {
        const sent = era() === 'modern' ? this.withLevel(message) : message
        if ('method' in sent && sent.method === 'tools/call' && 'id' in sent) openCalls.add(sent.id)
        // A cancelled call may never be answered.
        if ('method' in sent && sent.method === 'notifications/cancelled') {
          openCalls.delete(
            (sent.params as { requestId?: string | number } | undefined)?.requestId ?? '',
          )
        }
        tap.outgoing(sent)
        return sent
      },
      incoming: (message) => {
        tap.incoming(message)
        if (!('method' in message)) {
          if ('id' in message && message.id !== undefined) openCalls.delete(message.id)
        } else if (message.method === 'notifications/message' && !('id' in message)) {
          this.mcpMessage(message.params as LoggingMessageNotificationParams, openCalls.size)
        }
      },
    }
  }

  /**
   * Log messages are read off the wire in order (see `tap`); the client only needs to accept
   * them. Register before connecting.
   */
  attach(client: Client): void {
    client.setNotificationHandler('notifications/message', () => {})
  }

  /** The client is ready: a legacy server that declares logging gets the level now. */
  async connected(client: Client, timeoutMs: number): Promise<void> {
    this.client = client
    await this.push(timeoutMs).catch((error: unknown) => this.noteRefusal(error))
  }

  disconnected(client: Client): void {
    if (this.client === client) this.client = undefined
  }

  stderrLine(text: string): void {
    this.add({ seq: 0, source: 'stderr', time: new Date().toISOString(), text })
  }

  /** Kept lines after `after`, oldest first. */
  linesAfter(after = 0): ServerLogLine[] {
    return this.lines.filter((line) => line.seq > after)
  }

  subscribe(listener: LogLineListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private mcpMessage(
    params: LoggingMessageNotificationParams | undefined,
    openCalls: number,
  ): void {
    if (typeof params !== 'object' || params === null) return
    const parsed = logLevelSchema.safeParse(params.level)
    const level = parsed.success ? parsed.data : 'info'
    // Also for a server that ignores the level it was given.
    if (!atLeast(level, this.level)) return
    const line: McpLogLine = {
      seq: 0,
      source: 'mcp',
      time: new Date().toISOString(),
      level,
      logger: typeof params.logger === 'string' ? params.logger : null,
      data: boundedData(params.data),
    }
    this.add(line)
    this.onMessage(line, openCalls)
  }

  private add(line: ServerLogLine): void {
    line.seq = ++this.seq
    this.lines.push(line)
    if (this.lines.length > LOG_LINES_KEPT) this.lines.splice(0, this.lines.length - LOG_LINES_KEPT)
    for (const listener of this.listeners) listener(line)
  }

  private delivery(): LogLevelResponse['delivery'] {
    const client = this.client
    if (client === undefined) return 'filter'
    if (client.getProtocolEra() === 'modern') return 'request-meta'
    return client.getServerCapabilities()?.logging === undefined ? 'filter' : 'setLevel'
  }

  private async push(timeoutMs?: number): Promise<void> {
    const client = this.client
    if (client === undefined || this.delivery() !== 'setLevel') return
    const level = this.level
    await client.setLoggingLevel(
      level,
      timeoutMs === undefined ? undefined : { timeout: timeoutMs },
    )
    this.log({ kind: 'server.log_level', server: this.server, level })
  }

  private noteRefusal(error: unknown): void {
    this.log({ kind: 'server.log_level_failed', server: this.server, error: errorMessage(error) })
  }

  private withLevel(message: JSONRPCMessage): JSONRPCMessage {
    if (!('method' in message) || !('id' in message) || message.id === undefined) return message
    const params = (message.params ?? {}) as Record<string, unknown>
    const meta = (params._meta ?? {}) as Record<string, unknown>
    return {
      ...message,
      params: { ...params, _meta: { ...meta, [LOG_LEVEL_META_KEY]: this.level } },
    }
  }
}

/** The data as kept: strings cut, and a preview of its JSON when still too large. */
function boundedData(data: unknown): unknown {
  const cut = cutStrings(data, 0)
  let json: string
  try {
    json = JSON.stringify(cut) ?? 'null'
  } catch {
    return `[${CUT_KEY}: data that is not JSON]`
  }
  const bytes = Buffer.byteLength(json)
  if (bytes <= LOG_DATA_BYTES) return cut
  return `${json.slice(0, 1024)}…[${CUT_KEY}: ${bytes} bytes of data, shown in part]`
}

/** The observers of every server by name: a reconnect with new settings keeps its trace and logs. */
export class ServerObservers {
  private readonly byName = new Map<string, ServerObserver>()

  constructor(
    private readonly onMessage: (server: string, line: McpLogLine, openCalls: number) => void,
    private readonly log: Log,
  ) {}

  /** The server's observer, made on first use, at the settings' `level`. */
  for(server: string, level: LogLevel): ServerObserver {
    let observer = this.byName.get(server)
    if (observer === undefined) {
      observer = new ServerObserver(
        server,
        level,
        (line, openCalls) => this.onMessage(server, line, openCalls),
        this.log,
      )
      this.byName.set(server, observer)
    } else {
      void observer.configure(level)
    }
    return observer
  }

  get(server: string): ServerObserver | undefined {
    return this.byName.get(server)
  }
}
