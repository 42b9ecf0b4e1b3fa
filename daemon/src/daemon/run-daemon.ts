// Starts and stops the daemon: private state directory, single-instance lock, settings, the
// loopback HTTP server with its token, the runtime file, then the server connections. Token and
// port carry over from the previous run, so a WebShell tab survives a restart.

import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Ferry } from '../core/ferry.js'
import { ErrorCode, FerryError } from '../errors.js'
import { createApp } from '../http/app.js'
import { attachStream } from '../http/stream-server.js'
import { Sessions } from '../sessions/sessions.js'
import { loadStaticFiles } from '../http/static-files.js'
import { createFileLog, type Log } from '../log.js'
import { version } from '../version.js'
import { listenLoopback, otherLoopback, type Listening } from './listen.js'
import { acquireLock } from './lock.js'
import { readPreviousRun } from './previous-run.js'
import { markRuntimeFileStopped, writeRuntimeFile, type RuntimeInfo } from './runtime-file.js'
import { ensurePrivateDir } from './state-dir.js'
import { newToken } from './token.js'

export const LOOPBACK_HOSTS = ['127.0.0.1', '::1'] as const
const SHUTDOWN_DEADLINE_MS = 8000

export interface DaemonOptions {
  stateDir: string
  cwd: string
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
  webshellDir?: string
  sandboxProxyFile?: string
}

export interface DaemonHandle {
  info: RuntimeInfo
  ferry: Ferry
  sessions: Sessions
  log: Log
  stop(reason: string): Promise<void>
  stopped: Promise<void>
}

const defaultWebshellDir = fileURLToPath(new URL('../../../webshell/dist', import.meta.url))
const defaultSandboxProxyFile = fileURLToPath(
  new URL('../../../sandbox-proxy/sandbox-proxy.html', import.meta.url),
)

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
  const releaseLock = await acquireLock(options.stateDir)
  const log = createFileLog(join(options.stateDir, 'daemon.log'))
  let ferry: Ferry
  try {
    ferry = await Ferry.create({
      load: {
        cwd: options.cwd,
        configFile: options.configFile,
        env: options.env,
        homeDir: options.homeDir,
      },
      stateDir: options.stateDir,
      version,
      log,
    })
  } catch (error) {
    await releaseLock()
    throw error
  }

  let sessions: Sessions
  try {
    sessions = await Sessions.open(
      options.stateDir,
      options.cwd,
      ferry,
      log,
      options.compactAboveBytes,
    )
  } catch (error) {
    await releaseLock()
    throw error
  }

  const previous = await readPreviousRun(options.stateDir, options.host)
  // Set once the port is bound: the previous token only carries over to the same origin.
  let token = ''
  const staticFiles = await loadStaticFiles(options.webshellDir ?? defaultWebshellDir)
  const sandboxProxyFile = options.sandboxProxyFile ?? defaultSandboxProxyFile
  // Read once, like the WebShell: every request gets the same bytes. Without it the daemon still
  // runs; Apps then fall back to their text results.
  const sandboxPage = await readFile(sandboxProxyFile).catch((error: unknown) => {
    log({ kind: 'daemon.sandbox_proxy_missing', file: sandboxProxyFile, error: String(error) })
    return undefined
  })
  // Known once the port is bound; the app reads them on every request.
  const bound = {
    hosts: new Set<string>(),
    origins: new Set<string>(),
    url: '',
    sandboxHost: '',
  }
  const startedAt = new Date().toISOString()
  let stopping: Promise<void> | undefined
  let resolveStopped: () => void = () => {}
  const stopped = new Promise<void>((resolve) => (resolveStopped = resolve))

  const stop = (reason: string): Promise<void> => {
    stopping ??= (async () => {
      log({ kind: 'daemon.stopping', reason })
      stream?.close()
      for (const listener of [server, twin]) {
        listener?.close()
        listener?.closeAllConnections()
      }
      await Promise.race([
        ferry.close(),
        new Promise((resolve) => setTimeout(resolve, SHUTDOWN_DEADLINE_MS).unref()),
      ])
      // Calls that ended with the servers have written their last events; flush and close.
      await sessions.close()
      await markRuntimeFileStopped(options.stateDir, process.pid)
      await releaseLock()
      log({ kind: 'daemon.stopped' })
      resolveStopped()
    })()
    return stopping
  }

  const handler: { app?: ReturnType<typeof createApp> } = {}
  // The app is made once the token is known, before any request can be read. The Node request
  // and response ride along in the second argument (body limits and client disconnects are read
  // from them).
  const fetch = (request: Request, env: unknown) =>
    handler.app?.fetch(request, env) ?? new Response('starting', { status: 503 })
  const remembered = options.port === undefined ? previous.port : undefined
  let listening: Listening
  try {
    listening =
      remembered === undefined
        ? await listenLoopback(options.host, options.port ?? 0, fetch)
        : await listenLoopback(options.host, remembered, fetch).catch((error: unknown) => {
            // Something else took the port meanwhile. Starting beats failing; open tabs then need
            // a fresh link, as the origin changed.
            log({
              kind: 'daemon.port_unavailable',
              port: remembered,
              error: (error as Error).message,
            })
            return listenLoopback(options.host, 0, fetch)
          })
  } catch (error) {
    await releaseLock()
    throw new FerryError(
      ErrorCode.Internal,
      `cannot listen on ${options.host}:${options.port ?? 0}: ${(error as Error).message}`,
      { cause: error },
    )
  }
  const { server, twin, port } = listening
  if (twin === undefined) log({ kind: 'daemon.no_twin', host: otherLoopback(options.host), port })
  // A tab holding the old token can only reach this origin again if the port is the same; on a
  // new port the old token is worth nothing to Ferry but would still be sent to whatever took
  // the old port, so it is replaced.
  const samePort = previous.port === port
  token = (options.newToken === true || !samePort ? undefined : previous.token) ?? newToken()
  handler.app = createApp({
    ferry,
    sessions,
    token,
    log,
    hosts: () => bound.hosts,
    origins: () => bound.origins,
    staticFiles,
    sandboxHost: () => bound.sandboxHost,
    sandboxPage,
    status: () => ({
      pid: process.pid,
      version,
      url: bound.url,
      stateDir: options.stateDir,
      startedAt,
    }),
    shutdown: () => void stop('shutdown requested through the API'),
  })

  const stream = attachStream(server, {
    sessions,
    token,
    log,
    hosts: () => bound.hosts,
    origins: () => bound.origins,
  })
  const authority = `${hostLiteral(options.host)}:${port}`
  bound.hosts = new Set([authority])
  bound.origins = new Set([`http://${authority}`])
  bound.url = `http://${authority}/`
  bound.sandboxHost = `${SANDBOX_HOST_NAME}:${port}`
  const info: RuntimeInfo = {
    pid: process.pid,
    port,
    host: options.host,
    url: bound.url,
    version,
    token,
    startedAt,
    stoppedAt: null,
  }
  await writeRuntimeFile(options.stateDir, info)
  log({ kind: 'daemon.started', pid: process.pid, port, settings: ferry.settings.files })
  void ferry.connectAll()
  return { info, ferry, sessions, log, stop, stopped }
}
