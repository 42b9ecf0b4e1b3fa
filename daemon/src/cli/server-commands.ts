// ferry servers | tools | call | reload | reconnect: thin clients of the daemon's REST API.

import { ErrorCode, FerryError } from '../errors.js'
import type {
  CallRequest,
  ConfirmationOutcome,
  CallStreamLine,
  CallToolResult,
  ReloadResponse,
  ServerInfo,
  ToolInfo,
} from '../protocol/index.js'
import { callArgsText, readAll } from './call-args.js'
import { CallInputs } from './call-inputs.js'
import type { CliContext } from './context.js'
import { answerSaid } from '../protocol/confirmation-answers.js'
import { canPrompt, promptConfirmation } from './confirm-prompt.js'
import { connectDaemon, JsonText } from './daemon-client.js'
import { formatMissingTools, formatResult, formatServers, formatTools } from './format.js'
import { formatWaiting } from './format-approval.js'
import { jsonText, terminalText } from './terminal-text.js'

export async function servers(ctx: CliContext, json: boolean): Promise<number> {
  const list = await (await connectDaemon(ctx.stateDir)).get<ServerInfo[]>('/servers')
  if (json) {
    ctx.out(jsonText(list, 2))
    return 0
  }
  // A waiting entry shows as it would run, so the table never hides what an approval starts.
  const waiting = list.flatMap((server) => (server.approval === null ? [] : [server.approval]))
  ctx.out(
    [formatServers(list), ...waiting.map((entry) => formatWaiting(entry).join('\n'))].join('\n\n'),
  )
  return 0
}

export async function tools(
  ctx: CliContext,
  options: { server?: string; refresh?: boolean; json?: boolean },
): Promise<number> {
  const query = new URLSearchParams()
  if (options.server !== undefined) query.set('server', options.server)
  if (options.refresh) query.set('refresh', 'true')
  const suffix = query.size > 0 ? `?${query}` : ''
  const daemon = await connectDaemon(ctx.stateDir)
  const list = await daemon.get<ToolInfo[]>(`/tools${suffix}`)
  if (options.json) {
    ctx.out(jsonText(list, 2))
    return 0
  }
  const servers = (await daemon.get<ServerInfo[]>('/servers')).filter(
    (server) => options.server === undefined || server.name === options.server,
  )
  const missing = formatMissingTools(servers)
  ctx.out(missing === '' ? formatTools(list) : `${formatTools(list)}\n\n${missing}`)
  return 0
}

export async function call(
  ctx: CliContext,
  tool: string,
  rawArgs: string | undefined,
  options: { json?: boolean; timeout?: number; session?: string; yes?: boolean },
): Promise<number> {
  const args = callArgsText(rawArgs === '-' ? await readAll(ctx.io.stdin) : rawArgs)
  const client = await connectDaemon(ctx.stateDir)
  const interactive = options.yes !== true && canPrompt(ctx.io)
  const who = { kind: 'cli' as const, label: `ferry call (pid ${process.pid})` }
  const body: Omit<CallRequest, 'arguments'> = {
    tool,
    interactive,
    client: who,
    ...(options.timeout === undefined ? {} : { timeoutMs: options.timeout }),
    ...(options.session === undefined ? {} : { session: options.session }),
    ...(options.yes === true ? { yes: true } : {}),
  }
  // The arguments go as typed, so the daemon's check judges them however deep they nest.
  const sent = new JsonText(`{"arguments":${args},${JSON.stringify(body).slice(1)}`)
  const inputs = interactive ? new CallInputs(client, who, ctx.io) : undefined
  // The confirmation is asked while the answer goes on being read, so one answered elsewhere closes.
  let asking: { controller: AbortController; done: Promise<void> } | undefined
  const ask = (tool: string, server: string, callId: string) => {
    const controller = new AbortController()
    const done = promptConfirmation(ctx.io, tool, server, controller.signal)
      .then(async (outcome) => {
        if (outcome === undefined) return
        await client.post(`/calls/${callId}/answer`, { outcome, client: body.client })
      })
      .catch((error: unknown) => ctx.err(`ferry: ${terminalText((error as Error).message)}`))
    asking = { controller, done }
  }
  // The client makes sure the answer ends with a result or an error line.
  const final = await client
    .stream<CallStreamLine>('/call', sent, (line) => {
      if (inputs?.handle(line) === true) return
      if ('progress' in line && ctx.io.stderr.isTTY) {
        const { progress, total, message } = line.progress
        ctx.err(
          `… ${progress}${total === undefined ? '' : `/${total}`}${message ? ` ${message}` : ''}`,
        )
      } else if ('confirmation' in line && interactive) {
        ask(line.confirmation.tool, line.confirmation.server, line.confirmation.callId)
      } else if ('confirmed' in line && interactive) {
        asking?.controller.abort()
        const { outcome, by } = line.confirmed
        const said = answerSaid(outcome as ConfirmationOutcome)
        ctx.err(terminalText(`${tool}: ${said} by ${by}`))
      }
    })
    .finally(async () => {
      asking?.controller.abort()
      await asking?.done
      await inputs?.close()
    })
  if ('error' in final) throw new FerryError(final.error.code as ErrorCode, final.error.message)
  const result = final.result as CallToolResult
  ctx.out(options.json ? jsonText(result) : formatResult(result))
  if (result.isError === true) {
    ctx.err(`ferry: ${tool} returned an error`)
    return 1
  }
  return 0
}

export async function reload(ctx: CliContext): Promise<number> {
  printReload(ctx, await (await connectDaemon(ctx.stateDir)).post<ReloadResponse>('/reload'))
  return 0
}

/** What a reload changed, one line per kind of change, then its warnings. */
export function printReload(ctx: CliContext, result: ReloadResponse): void {
  const line = (label: string, names: string[]) =>
    names.length > 0 ? ctx.out(`${label}: ${names.join(', ')}`) : undefined
  line('Added', result.added)
  line('Reconnected', result.reconnected)
  line('Stopped', result.stopped)
  line('Unchanged', result.unchanged)
  line('Removed', result.removed)
  for (const warning of result.warnings) ctx.out(`Warning: ${warning}`)
}

export async function reconnect(ctx: CliContext, server: string): Promise<number> {
  const list = await (
    await connectDaemon(ctx.stateDir)
  ).post<ServerInfo[]>(`/servers/${encodeURIComponent(server)}/reconnect`)
  const info = list.find((entry) => entry.name === server)
  ctx.out(`${server}: ${info?.status ?? 'unknown'}${info?.error ? ` — ${info.error}` : ''}`)
  return info?.status === 'ready' ? 0 : 2
}
