// ferry logs | trace: a server's stderr and MCP log messages, and its protocol trace, printed
// once from the REST API or followed live through the stream.

import type {
  LogLevel,
  LogLevelResponse,
  LogsResponse,
  ServerLogLine,
  TraceEntry,
  TraceResponse,
} from '../protocol/index.js'
import { LOG_LEVELS } from '../protocol/index.js'
import type { CliContext } from './context.js'
import { connectDaemon } from './daemon-client.js'
import { followServer } from './server-follow.js'
import { jsonText } from './terminal-text.js'

export interface ObserveOptions {
  follow?: boolean
  json?: boolean
  /** `ferry logs`: the level the server is asked to log at; MCP log messages below it are not printed. */
  level?: string
}

/** How a level reaches the server, in words (as the WebShell's Logs pane says it). */
const DELIVERY: Record<LogLevelResponse['delivery'], string> = {
  setLevel: 'sent to the server with logging/setLevel',
  'request-meta': "sent with each of Ferry's requests to the server",
  filter: 'the server has no levels: Ferry drops what is below',
}

/** Local wall-clock time with milliseconds, as `tail`-like tools show it. */
function clock(iso: string): string {
  const time = new Date(iso)
  const pad = (value: number, width = 2) => String(value).padStart(width, '0')
  return `${pad(time.getHours())}:${pad(time.getMinutes())}:${pad(time.getSeconds())}.${pad(time.getMilliseconds(), 3)}`
}

export function formatLogLine(line: ServerLogLine): string {
  if (line.source === 'stderr') return `${clock(line.time)} ${'stderr'.padEnd(9)} ${line.text}`
  const data = typeof line.data === 'string' ? line.data : jsonText(line.data)
  const logger = line.logger === null ? '' : `[${line.logger}] `
  return `${clock(line.time)} ${line.level.padEnd(9)} ${logger}${data}`
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

/** One line per message: time, direction, kind, method, id, size and, on answers, latency. */
export function formatTraceEntry(entry: TraceEntry): string {
  const arrow = entry.direction === 'out' ? '→' : '←'
  const id = entry.id === null ? '' : `#${String(entry.id)}`
  const latency = entry.latencyMs === null ? '' : `  ${entry.latencyMs} ms`
  return `${clock(entry.time)} ${arrow} ${entry.kind.padEnd(12)} ${(entry.method ?? '?').padEnd(32)} ${id.padEnd(6)} ${size(entry.bytes).padStart(9)}${latency}`
}

export async function logs(
  ctx: CliContext,
  server: string,
  options: ObserveOptions,
): Promise<number> {
  let shown: readonly LogLevel[] = LOG_LEVELS
  if (options.level !== undefined) {
    // The same change as the WebShell's level: kept until a reload changes the settings' logLevel.
    const set = await (
      await connectDaemon(ctx.stateDir)
    ).send<LogLevelResponse>('PUT', `/servers/${encodeURIComponent(server)}/log-level`, {
      level: options.level,
    })
    shown = LOG_LEVELS.slice(LOG_LEVELS.indexOf(set.level))
    ctx.err(`${set.server} logs at ${set.level} and above (${DELIVERY[set.delivery]})`)
  }
  const print = (line: ServerLogLine) => {
    if (line.source === 'mcp' && !shown.includes(line.level)) return
    ctx.out(options.json === true ? jsonText(line) : formatLogLine(line))
  }
  if (options.follow === true) {
    return followServer(ctx.stateDir, server, { feed: 'logs', onEntry: print }, (status) =>
      ctx.err(`ferry: ${status}`),
    )
  }
  const body = await (
    await connectDaemon(ctx.stateDir)
  ).get<LogsResponse>(`/servers/${encodeURIComponent(server)}/logs`)
  for (const line of body.entries) print(line)
  return 0
}

export async function trace(
  ctx: CliContext,
  server: string,
  options: ObserveOptions,
): Promise<number> {
  const print = (entry: TraceEntry) =>
    ctx.out(options.json === true ? jsonText(entry) : formatTraceEntry(entry))
  if (options.follow === true) {
    return followServer(ctx.stateDir, server, { feed: 'trace', onEntry: print }, (status) =>
      ctx.err(`ferry: ${status}`),
    )
  }
  const body = await (
    await connectDaemon(ctx.stateDir)
  ).get<TraceResponse>(`/servers/${encodeURIComponent(server)}/trace`)
  for (const entry of body.entries) print(entry)
  return 0
}
