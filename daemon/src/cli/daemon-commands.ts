// ferry serve | start | stop | status: run the daemon in the foreground, start it in the
// background and wait until it answers, stop it, or report on it.

import { spawn } from 'node:child_process'
import { closeSync, openSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { ferryBinPath } from '../package-paths.js'
import { ErrorCode, FerryError } from '../errors.js'
import { isAlive } from '../daemon/lock.js'
import { DAEMON_NODE_FLAGS } from '../daemon/node-flags.js'
import { readRuntimeFile, type RuntimeInfo } from '../daemon/runtime-file.js'
import type { DaemonHandle } from '../daemon/run-daemon.js'
import { ensurePrivateDir } from '../daemon/state-dir.js'
import type { StatusResponse } from '../protocol/index.js'
import { settingsProblemText } from '../protocol/settings-says.js'
import { closedPipe, type CliContext } from './context.js'
import { connectDaemon, notRunning } from './daemon-client.js'
import { jsonText } from './terminal-text.js'

export interface ServeOptions {
  /** Absent unless given, so the daemon can try the previous run's port first. */
  port?: number
  host: string
  compactAboveMb: number
  newToken?: boolean
  /** `--workspace DIR`: the daemon's workspace, named on purpose. */
  workspace?: string
}

/** The workspace directory `--workspace` names, which must exist; the current one without it. */
function workspaceOf(ctx: CliContext, options: ServeOptions): string {
  if (options.workspace === undefined) return ctx.io.cwd
  const dir = resolve(ctx.io.cwd, options.workspace)
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    throw new FerryError(
      ErrorCode.BadRequest,
      `--workspace ${options.workspace}: no such directory`,
    )
  }
  return dir
}

const START_WAIT_MS = 20_000

export function webshellUrl(url: string, token: string): string {
  return `${url}#token=${token}`
}

export async function serve(ctx: CliContext, options: ServeOptions): Promise<number> {
  // Nobody reading the daemon's output is no reason to stop serving.
  closedPipe.end = () => {}
  // Signals are handled from the first moment, so none can kill the daemon half-started.
  const live: { daemon?: DaemonHandle; stopRequested?: string } = {}
  const onStop = (signal: string) => {
    if (live.daemon === undefined) live.stopRequested = signal
    else void live.daemon.stop(`received ${signal}`)
  }
  process.on('SIGTERM', onStop)
  process.on('SIGINT', onStop)
  // Settings that cannot be read are logged and shown in every transcript by the reload itself.
  process.on('SIGHUP', () => {
    live.daemon?.ferry.reload().catch(() => {})
  })
  // The daemon's modules load only here: `status`, `stop` and `start` need none of them.
  const { runDaemon } = await import('../daemon/run-daemon.js')
  const daemon = await runDaemon({
    stateDir: ctx.stateDir,
    cwd: workspaceOf(ctx, options),
    workspaceDeclared: options.workspace !== undefined,
    configFile: ctx.configFile === undefined ? undefined : resolve(ctx.io.cwd, ctx.configFile),
    env: ctx.io.env,
    homeDir: ctx.homeDir,
    port: options.port,
    host: options.host,
    compactAboveBytes: options.compactAboveMb * 1024 * 1024,
    newToken: options.newToken === true,
  })
  ctx.out(`Ferry ${daemon.info.version} listening on ${daemon.info.url} (pid ${daemon.info.pid})`)
  live.daemon = daemon
  if (live.stopRequested !== undefined) void daemon.stop(`received ${live.stopRequested}`)
  await daemon.stopped
  // Everything is flushed and closed; idle keep-alive sockets must not hold the process open.
  process.exit(0)
}

/**
 * Waits until the daemon with `pid` (any live daemon, without one) answers `GET /api/status`;
 * `exited` says why it will not, once it stopped.
 */
export async function waitForDaemon(
  stateDir: string,
  pid: number | undefined,
  exited: () => string | null,
): Promise<{ info: RuntimeInfo; status: StatusResponse }> {
  const deadline = Date.now() + START_WAIT_MS
  while (Date.now() < deadline) {
    const why = exited()
    if (why !== null) throw new FerryError(ErrorCode.Internal, why)
    const info = await readRuntimeFile(stateDir)
    if (info !== undefined && (pid === undefined ? isAlive(info.pid) : info.pid === pid)) {
      const client = await connectDaemon(stateDir)
      const status = await client.get<StatusResponse>('/status').catch(() => undefined)
      if (status !== undefined) return { info, status }
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new FerryError(ErrorCode.Internal, `the daemon did not answer within ${START_WAIT_MS} ms`)
}

export async function start(ctx: CliContext, options: ServeOptions): Promise<number> {
  const running = await readRuntimeFile(ctx.stateDir)
  if (running !== undefined && isAlive(running.pid)) {
    // Everything else is ignored here, but a revocation must not be reported as done.
    if (options.newToken === true) {
      throw new FerryError(
        ErrorCode.DaemonRunning,
        `Ferry is already running (pid ${running.pid}); to replace its token, run \`ferry stop\` and then \`ferry start --new-token\``,
      )
    }
    ctx.out(`Ferry is already running (pid ${running.pid}).`)
    ctx.out(`WebShell: ${webshellUrl(running.url, running.token)}`)
    return 0
  }
  const { info, status } = await launchDaemon(ctx, options)
  ctx.out(`Ferry ${info.version} is running (pid ${info.pid}).`)
  ctx.out(`WebShell: ${webshellUrl(info.url, info.token)}`)
  for (const line of settingsNotes(status)) ctx.err(line)
  return 0
}

/**
 * Starts `ferry serve` detached, its output in `daemon.out`, and waits until it answers. Prints
 * nothing: `ferry start` prints the WebShell URL, `ferry mcp` must keep its stdout for MCP.
 */
export async function launchDaemon(
  ctx: CliContext,
  options: ServeOptions,
): Promise<{ info: RuntimeInfo; status: StatusResponse }> {
  await ensurePrivateDir(ctx.stateDir)
  const outPath = join(ctx.stateDir, 'daemon.out')
  const out = openSync(outPath, 'w', 0o600)
  const args = [...DAEMON_NODE_FLAGS, ferryBinPath, 'serve', '--state-dir', ctx.stateDir]
  // Passed on only when given: without it the daemon tries the previous run's port first.
  if (options.port !== undefined) args.push('--port', String(options.port))
  args.push('--host', options.host, '--compact-above-mb', String(options.compactAboveMb))
  if (options.newToken === true) args.push('--new-token')
  if (options.workspace !== undefined) args.push('--workspace', workspaceOf(ctx, options))
  if (ctx.configFile !== undefined) args.push('--config', resolve(ctx.io.cwd, ctx.configFile))
  const child = spawn(process.execPath, args, {
    cwd: ctx.io.cwd,
    detached: true,
    stdio: ['ignore', out, out],
    env: ctx.io.env,
  })
  closeSync(out)
  let exit: string | null = null
  child.on('exit', (code, signal) => {
    // The daemon's last line says why it stopped (`ferry: <reason>`); the rest is in daemon.out.
    const last = readFileSync(outPath, 'utf8')
      .trim()
      .split('\n')
      .pop()
      ?.replace(/^ferry: /, '')
    exit =
      `the daemon exited (${signal ?? `code ${code}`}) while starting: ${last || 'no reason given'}` +
      ` (see ${outPath} and ${join(ctx.stateDir, 'daemon.log')})`
  })
  child.unref()
  return waitForDaemon(ctx.stateDir, child.pid as number, () => exit)
}

/** What a new daemon's settings leave for the person to do, one stderr line each. */
export function settingsNotes(status: StatusResponse): string[] {
  const notes = (status.filesWithoutServers ?? []).map(
    ({ file, reason }) => `ferry: no server could be read from ${file}: ${reason}`,
  )
  const waiting = status.awaitingApproval ?? []
  if (waiting.length > 0) {
    notes.push(
      `ferry: ${waiting.length} server${waiting.length === 1 ? '' : 's'} in ` +
        `${join(status.workspace, '.ferry', 'settings.json')} wait${waiting.length === 1 ? 's' : ''} ` +
        `for your approval (${waiting.join(', ')}); review and run \`ferry workspace approve\``,
    )
  }
  return notes
}

export async function stop(ctx: CliContext): Promise<number> {
  const info = await readRuntimeFile(ctx.stateDir)
  if (info === undefined || !isAlive(info.pid)) {
    ctx.out('Ferry is not running.')
    return 0
  }
  const client = await connectDaemon(ctx.stateDir)
  await client.post('/shutdown').catch(() => process.kill(info.pid, 'SIGTERM'))
  const deadline = Date.now() + 15_000
  while (isAlive(info.pid)) {
    if (Date.now() > deadline) {
      throw new FerryError(ErrorCode.Internal, `the daemon (pid ${info.pid}) did not stop in time`)
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  ctx.out(`Ferry stopped (pid ${info.pid}).`)
  return 0
}

export async function status(ctx: CliContext, json: boolean): Promise<number> {
  const info = await readRuntimeFile(ctx.stateDir)
  if (info === undefined || !isAlive(info.pid)) throw notRunning(ctx.stateDir)
  const body = await (await connectDaemon(ctx.stateDir)).get<StatusResponse>('/status')
  if (json) {
    ctx.out(jsonText(body, 2))
    return 0
  }
  ctx.out(`Ferry ${body.version} running (pid ${body.pid}) at ${body.url}`)
  ctx.out(`State directory: ${body.stateDir}`)
  ctx.out(
    `Settings: ${body.usingDemo ? 'none found; running the bundled demo server' : body.settingsFiles.join(', ')}`,
  )
  if (body.settingsProblem !== null) ctx.out(settingsProblemText(body.settingsProblem))
  ctx.out(`Servers: ${body.servers.ready}/${body.servers.total} ready`)
  ctx.out(
    body.gateway.enabled
      ? `Gateway: ${body.gateway.url} (phase ${body.gateway.phase}, ${body.gateway.legacySessions} legacy sessions)`
      : 'Gateway: off (gateway.enabled is false)',
  )
  if ((body.awaitingApproval ?? []).length > 0) {
    ctx.out(
      `Waiting for approval: ${body.awaitingApproval.join(', ')} (run \`ferry workspace approve\`)`,
    )
  }
  for (const warning of body.warnings) ctx.out(`Warning: ${warning}`)
  return 0
}
