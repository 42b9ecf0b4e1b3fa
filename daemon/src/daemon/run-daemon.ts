// Starts and stops the daemon: private state directory, single-instance lock, settings, the
// loopback HTTP server with its token, the runtime file, then the server connections. Each step
// pushes its disposer on one stack, so a failed start releases all it took. Token and port carry
// over from the previous run, so a WebShell tab survives a restart.

import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { sandboxProxyFile as defaultSandboxProxyFile, webshellDistDir } from '../package-paths.js'
import { Ferry } from '../core/ferry.js'
import { ErrorCode, errorMessage, FerryError } from '../errors.js'
import { GatewayElicitation } from '../gateway/elicitation.js'
import { Gateway } from '../gateway/endpoint.js'
import { ListChanges, type Debounce } from '../gateway/list-changes.js'
import { GatewayTokenStore } from '../gateway/token-store.js'
import { createApp } from '../http/app.js'
import { connectionGuard, unauthenticatedBound } from '../http/connection-guard.js'
import { attachStream } from '../http/stream-server.js'
import { Sessions } from '../sessions/sessions.js'
import { loadStaticFiles } from '../http/static-files.js'
import { createFileLog, type Log } from '../log.js'
import { version } from '../version.js'
import { DisposerStack } from './disposer-stack.js'
import {
  listenLoopback,
  otherLoopback,
  type Fetch,
  type Handlers,
  type Listening,
} from './listen.js'
import { acquireLock } from './lock.js'
import { openFileLimit } from './open-file-limit.js'
import { readPreviousRun } from './previous-run.js'
import { markRuntimeFileStopped, writeRuntimeFile, type RuntimeInfo } from './runtime-file.js'
import { ensurePrivateDir } from './state-dir.js'
import { newToken } from './token.js'
import type { TransportFactory } from '../mcp/transports.js'
import type { ProbeCaps } from '../mcp/connect-plan.js'

export const LOOPBACK_HOSTS = ['127.0.0.1', '::1'] as const
export const SHUTDOWN_DEADLINE_MS = 8000

export interface DaemonOptions {
  stateDir: string
  cwd: string
  /** `cwd` was named with `--workspace`: it is every server's root. */
  workspaceDeclared?: boolean
  configFile: string | undefined
  env: Record<string, string | undefined>
  homeDir: string
  /** Undefined: the previous run's port if it is free, else any free port. 0: any free port. */
  port: number | undefined
  host: string
  /** Do not take over the previous run's token, which locks out every tab and link that has it. */
  newToken?: boolean
  /** A session transcript past this size is compacted automatically. */
  compactAboveBytes?: number
  /** `daemon.log` past this size is moved to `daemon.log.1`. */
  logMaxBytes?: number
  webshellDir?: string
  sandboxProxyFile?: string
  /** Makes each connection's transport; the one the settings name unless a test supplies its own. */
  transport?: TransportFactory
  /** How long a probe may wait; PROBE_CAPS unless a test shortens it. */
  probeCaps?: ProbeCaps
  /** How often a gateway client waiting for a person hears that it still waits. */
  gatewayWaitingProgressMs?: number
  /** When gateway clients hear of a burst of list changes; LIST_CHANGE_DEBOUNCE_MS after its first. */
  listChangeDebounce?: Debounce
}

export interface DaemonHandle {
  info: RuntimeInfo
  ferry: Ferry
  sessions: Sessions
  log: Log
  stop(reason: string): Promise<void>
  stopped: Promise<void>
}

/** The name Apps are served under: a second loopback origin, apart from the WebShell's. */
export const SANDBOX_HOST_NAME = 'localhost'

function hostLiteral(host: string): string {
  return host.includes(':') ? `[${host}]` : host
}

export async function runDaemon(options: DaemonOptions): Promise<DaemonHandle> {
  // Anything but loopback would expose every configured server to the network.
  if (!(LOOPBACK_HOSTS as readonly string[]).includes(options.host)) {
    throw new FerryError(
      ErrorCode.BadRequest,
      `refusing to bind ${options.host}: Ferry listens on 127.0.0.1 or ::1 only`,
    )
  }
  await ensurePrivateDir(options.stateDir)
  const log = createFileLog(join(options.stateDir, 'daemon.log'), options.logMaxBytes)
  const built = new DisposerStack()
  const release = () =>
    built.dispose((error) => log({ kind: 'daemon.release_failed', error: errorMessage(error) }))
  try {
    return await start(options, log, built, release)
  } catch (error) {
    log({ kind: 'daemon.start_failed', error: errorMessage(error) })
    await release()
    throw error
  }
}

async function start(
  options: DaemonOptions,
  log: Log,
  built: DisposerStack,
  release: () => Promise<void>,
): Promise<DaemonHandle> {
  let stopping: Promise<void> | undefined
  let resolveStopped: () => void = () => {}
  const stopped = new Promise<void>((resolve) => (resolveStopped = resolve))
  // Shutting down releases what start-up built, in reverse order.
  const stop = (reason: string): Promise<void> => {
    stopping ??= (async () => {
      log({ kind: 'daemon.stopping', reason })
      await release()
      log({ kind: 'daemon.stopped' })
      resolveStopped()
    })()
    return stopping
  }

  const releaseLock = await acquireLock(options.stateDir)
  built.defer(async () => {
    await markRuntimeFileStopped(options.stateDir, process.pid)
    await releaseLock()
  })

  const ferry = await Ferry.create({
    load: {
      cwd: options.cwd,
      workspaceDeclared: options.workspaceDeclared,
      configFile: options.configFile,
      env: options.env,
      homeDir: options.homeDir,
    },
    stateDir: options.stateDir,
    version,
    log,
    transport: options.transport,
    probeCaps: options.probeCaps,
  })
  // Servers end before the sessions close, so calls that ended with them write their last events.
  let ferryClosed: Promise<void> | undefined
  const closeFerry = () =>
    (ferryClosed ??= Promise.race([
      ferry.close(),
      new Promise<void>((resolve) => setTimeout(resolve, SHUTDOWN_DEADLINE_MS).unref()),
    ]))
  built.defer(closeFerry)
  const sessions = await Sessions.open(
    options.stateDir,
    options.cwd,
    ferry,
    log,
    options.compactAboveBytes,
  )
  built.defer(async () => {
    await closeFerry()
    await sessions.close()
  })

  const previous = await readPreviousRun(options.stateDir, options.host)
  const staticFiles = await loadStaticFiles(options.webshellDir ?? webshellDistDir)
  const sandboxProxyFile = options.sandboxProxyFile ?? defaultSandboxProxyFile
  // Read once, like the WebShell: every request gets the same bytes. Without it the daemon still
  // runs; Apps then fall back to their text results.
  const sandboxPage = await readFile(sandboxProxyFile).catch((error: unknown) => {
    log({ kind: 'daemon.sandbox_proxy_missing', file: sandboxProxyFile, error: String(error) })
    return undefined
  })
  const startedAt = new Date().toISOString()

  const connectionBound = unauthenticatedBound(await openFileLimit())
  const connections = connectionGuard(log, { max: connectionBound })
  built.defer(() => connections.close())
  // The apps are made once the port is known. A request that arrives first (a tab reconnecting
  // the moment the port opens) waits for them, milliseconds; only if start-up fails is it told
  // the daemon is not there.
  const apps: { primary?: Fetch; twin?: Fetch } = {}
  let appsMade: () => void = () => {}
  const made = new Promise<void>((resolve) => (appsMade = resolve))
  built.defer(() => appsMade())
  const notRunning = () => new Response('Ferry did not start', { status: 503 })
  const serve =
    (which: 'primary' | 'twin'): Fetch =>
    async (request, env) => {
      if (apps[which] === undefined) await made
      const app = apps[which]
      return app === undefined ? notRunning() : app(request, env)
    }
  const handlers: Handlers = {
    primary: serve('primary'),
    twin: serve('twin'),
    onServer: (server) => connections.watch(server),
  }
  const { server, twin, port } = await listen(options, previous.port, handlers, log)
  built.defer(() => {
    for (const listener of [server, twin]) {
      listener?.close()
      listener?.closeAllConnections()
    }
  })
  if (twin === undefined) log({ kind: 'daemon.no_twin', host: otherLoopback(options.host), port })

  // A tab holding the old token can only reach this origin again if the port is the same; on a
  // new port the old token is worth nothing to Ferry but would still be sent to whatever took
  // the old port, so it is replaced.
  const samePort = previous.port === port
  const token = (options.newToken === true || !samePort ? undefined : previous.token) ?? newToken()
  const authority = `${hostLiteral(options.host)}:${port}`
  const hosts = new Set([authority])
  const origins = new Set([`http://${authority}`])
  const url = `http://${authority}/`
  ferry.signIns.setCallbackBase(url)
  const sandboxHost = `${SANDBOX_HOST_NAME}:${port}`
  const mcpUrl = `http://${authority}/mcp`
  const { store: gatewayTokens, problems } = await GatewayTokenStore.open(options.stateDir)
  for (const problem of problems) log({ kind: 'gateway.tokens_damaged', problem })
  built.defer(() => gatewayTokens.close())
  const gatewaySettings = () => ferry.settings.gateway
  const elicitation = await GatewayElicitation.open(options.stateDir, log)
  const gateway = new Gateway({
    catalog: ferry,
    sessions,
    log,
    webshellUrl: () => url,
    waitingProgressMs: options.gatewayWaitingProgressMs,
    settings: gatewaySettings,
    elicitation,
  })
  built.defer(() => gateway.close())
  built.defer(() => elicitation.close())
  gatewayTokens.onRevoke((name) => gateway.endClient(name))
  const listChanges = new ListChanges(
    ferry,
    (lists) => gateway.listsChanged(lists),
    log,
    options.listChangeDebounce,
  )
  built.defer(() => listChanges.close())
  const appDeps = {
    catalog: ferry,
    sessions,
    token,
    log,
    hosts: () => hosts,
    origins: () => origins,
    staticFiles,
    sandboxHost: () => sandboxHost,
    sandboxPage,
    connections,
    mcp: { gateway, tokens: gatewayTokens, settings: gatewaySettings },
    gateway: () => ({ url: mcpUrl, legacySessions: gateway.sessionCount }),
    gatewayTokens: {
      tokens: gatewayTokens,
      url: () => mcpUrl,
      checkSession: async (id: string) => {
        await sessions.resolve(id)
      },
    },
    status: () => ({ pid: process.pid, version, url, stateDir: options.stateDir, startedAt }),
    shutdown: () => void stop('shutdown requested through the API'),
  }
  apps.primary = createApp(appDeps).fetch
  // The other family's address is where only `localhost` may lead: its own IP literal (and this
  // one's) gets nothing there.
  const none = new Set<string>()
  apps.twin = createApp({ ...appDeps, hosts: () => none }).fetch
  appsMade()
  const stream = attachStream(server, {
    catalog: ferry,
    sessions,
    token,
    log,
    hosts: () => hosts,
    origins: () => origins,
    connections,
  })
  built.defer(() => stream.close())

  const info: RuntimeInfo = {
    pid: process.pid,
    port,
    host: options.host,
    url,
    version,
    token,
    startedAt,
    stoppedAt: null,
  }
  await writeRuntimeFile(options.stateDir, info)

  const started = { pid: process.pid, port, settings: ferry.settings.files, connectionBound }
  log({ kind: 'daemon.started', ...started })
  void ferry.connectAll()
  return { info, ferry, sessions, log, stop, stopped }
}

/** The given port, else the previous run's if it is still free, else any free port. */
async function listen(
  options: DaemonOptions,
  previousPort: number | undefined,
  handlers: Handlers,
  log: Log,
): Promise<Listening> {
  const remembered = options.port === undefined ? previousPort : undefined
  try {
    if (remembered === undefined)
      return await listenLoopback(options.host, options.port ?? 0, handlers)
    return await listenLoopback(options.host, remembered, handlers).catch((error: unknown) => {
      // Something else took the port meanwhile. Starting beats failing; open tabs then need a
      // fresh link, as the origin changed.
      log({ kind: 'daemon.port_unavailable', port: remembered, error: errorMessage(error) })
      return listenLoopback(options.host, 0, handlers)
    })
  } catch (error) {
    throw new FerryError(
      ErrorCode.Internal,
      `cannot listen on ${options.host}:${options.port ?? 0}: ${errorMessage(error)}`,
      { cause: error },
    )
  }
}
