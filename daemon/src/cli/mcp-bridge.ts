// ferry mcp [--client NAME]: an MCP server on stdio for hosts that only launch commands, relaying
// to the daemon's `/mcp` with the gateway token of NAME; it starts the daemon as `ferry start`
// does when none runs. Stdout carries MCP alone: everything else goes to stderr.

import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio'
import { isAlive } from '../daemon/lock.js'
import { readRuntimeFile, type RuntimeInfo } from '../daemon/runtime-file.js'
import { ErrorCode, FerryError } from '../errors.js'
import { checkClientName, clientToken, clientTokenPath } from './client-token.js'
import type { CliContext } from './context.js'
import { launchDaemon, settingsNotes, waitForDaemon } from './daemon-commands.js'
import { McpRelay } from './mcp-relay.js'

export const DEFAULT_CLIENT = 'stdio'

/** The daemon of the state directory, started (its output in daemon.out) if none runs. */
async function startedDaemon(ctx: CliContext): Promise<RuntimeInfo> {
  // `ferry start` prints the WebShell URL with the admin token: none of it may reach the client.
  const quiet: CliContext = { ...ctx, out: () => {}, err: ctx.err }
  try {
    const { info, status } = await launchDaemon(quiet, { host: '127.0.0.1', compactAboveMb: 64 })
    ctx.err(`ferry mcp: started Ferry ${info.version} (pid ${info.pid}) for ${ctx.stateDir}`)
    for (const line of settingsNotes(status)) ctx.err(line)
    return info
  } catch (error) {
    // Another `ferry mcp` (an era probe and its session, say) may be starting it right now.
    const owner = Number(await readFile(join(ctx.stateDir, 'daemon.lock'), 'utf8').catch(() => ''))
    if (!Number.isInteger(owner) || owner <= 0 || !isAlive(owner)) throw error
    const exited = () => (isAlive(owner) ? null : `the daemon (pid ${owner}) exited while starting`)
    return (await waitForDaemon(ctx.stateDir, owner, exited)).info
  }
}

async function runningDaemon(ctx: CliContext, first: boolean): Promise<RuntimeInfo> {
  const info = await readRuntimeFile(ctx.stateDir)
  if (info !== undefined && isAlive(info.pid)) return info
  // Only the first connection starts Ferry: one stopped later was stopped on purpose.
  if (first) return startedDaemon(ctx)
  throw new FerryError(
    ErrorCode.DaemonNotRunning,
    `Ferry is not running (state directory ${ctx.stateDir}); start it with \`ferry start\`, and the next request reaches it`,
  )
}

export async function mcpBridge(ctx: CliContext, options: { client: string }): Promise<number> {
  const name = options.client
  checkClientName(name)
  const down = new StdioServerTransport()
  const relay = new McpRelay({
    down,
    connect: async (first) => {
      const info = await runningDaemon(ctx, first)
      const { token, created } = await clientToken(ctx.stateDir, name)
      if (created) {
        ctx.err(
          `ferry mcp: created the gateway token "${name}", kept in ${clientTokenPath(ctx.stateDir, name)}`,
        )
      }
      return { url: new URL('mcp', info.url), token }
    },
    refusedMessage: (detail) =>
      `ferry mcp: Ferry refused the gateway token "${name}" (${detail}). A refused token is not ` +
      `replaced by itself, so a revocation holds: to let this client in again, delete ` +
      `${clientTokenPath(ctx.stateDir, name)} and restart the client, which then gets a new token`,
    report: ctx.err,
  })
  const closed = new Promise<void>((resolve) => (down.onclose = resolve))
  down.onerror = (error) => ctx.err(`ferry mcp: ${error.message}`)
  // A host that stops its server by a signal gets the same clean end as one that closes stdin.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void down.close())
  await down.start()
  relay.start()
  await closed
  await relay.close()
  // A daemon start still waiting, or idle keep-alive sockets, must not hold the process open.
  process.exit(0)
}
