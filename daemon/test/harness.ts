// Test harness: real daemons (`ferry serve` as a child process; `in-process.ts` runs one inside the
// test's own process) on private state directories, the real CLI, and the compiled fixture servers.
// Every daemon and process started here is stopped by `cleanup()`.

import { spawn, type ChildProcess } from 'node:child_process'
import { request, type IncomingHttpHeaders } from 'node:http'
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { isAlive } from '../src/daemon/lock.js'
import { DAEMON_NODE_FLAGS } from '../src/daemon/node-flags.js'
import { readRuntimeFile, type RuntimeInfo } from '../src/daemon/runtime-file.js'
import type {
  EventsPage,
  ServerInfo,
  StatusResponse,
  TranscriptEvent,
} from '../src/protocol/index.js'

import { stdioServerPath } from '../../e2e/fixtures/paths.js'
import { runCliInProcess } from './cli-in-process.js'
import { ferryBin, type CliResult } from './cli-process.js'
export { isAlive }
export { ferryBin, runCli, startScript, type CliResult } from './cli-process.js'

export {
  httpServerPath,
  httpStatusServerPath,
  rawLegacyServerPath,
  sseServerPath,
  stdioServerPath,
} from '../../e2e/fixtures/paths.js'

export interface TestDaemon {
  stateDir: string
  configPath: string
  /** The daemon's working directory, whose `.ferry/settings.json` is the workspace file. */
  workspace: string
  /** The user settings file under the daemon's HOME (used with `settings: null`). */
  userSettingsPath: string
  info: RuntimeInfo
  process: ChildProcess
  cli(
    args: string[],
    options?: { env?: Record<string, string>; input?: string },
  ): Promise<CliResult>
  api(path: string, init?: RequestInit): Promise<Response>
  servers(): Promise<ServerInfo[]>
  waitForStatus(name: string, status: ServerInfo['status'], timeoutMs?: number): Promise<ServerInfo>
  /** Every stored event of a session, by default the workspace's default session. */
  events(session?: string): Promise<TranscriptEvent[]>
  /**
   * The first event of the workspace's default session that `match` accepts, once it is stored;
   * an event may be stored just after what it reports shows elsewhere (a server's status, say).
   */
  waitForEvent(
    match: (event: TranscriptEvent) => boolean,
    timeoutMs?: number,
  ): Promise<TranscriptEvent>
  writeSettings(settings: unknown): Promise<void>
  stop(): Promise<void>
}

/** What a test needs of a daemon, however it runs (in a process of its own or in the test's). */
export type Daemon = Omit<TestDaemon, 'process'>

const cleanups: Array<() => Promise<void>> = []

/** Runs `stop` at the next `cleanup()`. */
export function onCleanup(stop: () => Promise<void>): void {
  cleanups.push(stop)
}

const temporary: string[] = []

/** Stops every daemon the test started, then removes the directories it made. */
export async function cleanup(): Promise<void> {
  await Promise.all(cleanups.splice(0).map((fn) => fn().catch(() => {})))
  await Promise.all(
    temporary.splice(0).map((dir) => rm(dir, { recursive: true, force: true }).catch(() => {})),
  )
}

export async function tempDir(prefix = 'ferry-test-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix))
  temporary.push(dir)
  return dir
}

export async function waitFor<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 15_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let last: unknown
  // Asked again soon at first, then less often: a wait of seconds costs the daemon and the test a
  // few dozen probes, not hundreds.
  let pause = 10
  while (Date.now() < deadline) {
    try {
      const value = await probe()
      if (value !== undefined && value !== false) return value
    } catch (error) {
      last = error
    }
    await new Promise((resolve) => setTimeout(resolve, pause))
    pause = Math.min(pause * 1.5, 200)
  }
  throw new Error(
    `timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`,
  )
}

/**
 * A stdio server entry running the fixture with `flags`. Trusted unless `extra` says otherwise,
 * so its calls need no confirmation; the confirmation tests opt out.
 */
export function fixture(
  flags: string[],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { command: process.execPath, args: [stdioServerPath, ...flags], trust: true, ...extra }
}

export async function countLines(file: string): Promise<number> {
  const text = await readFile(file, 'utf8').catch(() => '')
  return text.split('\n').filter((line) => line.trim() !== '').length
}

export async function readJsonLines<T = Record<string, unknown>>(file: string): Promise<T[]> {
  const text = await readFile(file, 'utf8').catch(() => '')
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T)
}

export interface StartOptions {
  env?: Record<string, string>
  stateDir?: string
  args?: string[]
  /** With `settings: null`: the user file (`$XDG_CONFIG_HOME/ferry/settings.json`) to write. */
  userSettings?: unknown
  /** With `settings: null`: the workspace file (`<cwd>/.ferry/settings.json`) to write. */
  workspaceSettings?: unknown
  /** Arguments to the shell's `ulimit` the daemon starts under, e.g. `['-n', '256']`. */
  ulimit?: string[]
}

/** Where a daemon started by `startDaemon` finds its workspace and user files. */
export function daemonPaths(stateDir: string, configDir: string) {
  const workspace = `${stateDir}.workspace`
  return {
    workspace,
    workspaceSettings: join(workspace, '.ferry', 'settings.json'),
    userSettings: join(configDir, '.config', 'ferry', 'settings.json'),
  }
}

async function writeJson(file: string, value: unknown): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  await writeFile(file, JSON.stringify(value, null, 2))
}

/** A daemon's files and environment, made ready for it to start on. */
export interface Prepared {
  stateDir: string
  configDir: string
  configPath: string
  workspace: string
  userSettingsPath: string
  env: NodeJS.ProcessEnv
  /** `--config` and its file, unless the daemon reads the user and workspace files. */
  configFile: string | undefined
}

/**
 * `settings: null` starts without `--config`: a fresh HOME (with `userSettings`, if given) and the
 * workspace file `workspaceSettings`, if given; with neither, no settings file at all.
 */
export async function prepare(settings: unknown, options: StartOptions): Promise<Prepared> {
  const stateDir = options.stateDir ?? (await tempDir('ferry-state-'))
  const configDir = await tempDir('ferry-config-')
  const configPath = join(configDir, 'settings.json')
  let env: NodeJS.ProcessEnv = { ...process.env, ...options.env }
  const paths = daemonPaths(stateDir, configDir)
  let configFile: string | undefined
  if (settings === null) {
    env = { ...env, HOME: configDir, XDG_CONFIG_HOME: join(configDir, '.config') }
    delete env.FERRY_CONFIG
    if (options.userSettings !== undefined)
      await writeJson(paths.userSettings, options.userSettings)
    if (options.workspaceSettings !== undefined) {
      await writeJson(paths.workspaceSettings, options.workspaceSettings)
    }
  } else {
    await writeFile(configPath, JSON.stringify(settings, null, 2))
    configFile = configPath
  }
  // The workspace (working directory) belongs to the state directory, so a restarted daemon finds
  // the same workspace and its default session again.
  await mkdir(paths.workspace, { recursive: true })
  temporary.push(paths.workspace)
  return {
    stateDir,
    configDir,
    configPath,
    workspace: paths.workspace,
    userSettingsPath: paths.userSettings,
    env,
    configFile,
  }
}

/** What every test daemon offers, however it runs: its files, API, CLI and transcript. */
export function surface(
  prepared: Prepared,
  info: RuntimeInfo,
  stop: () => Promise<void>,
  /**
   * How `cli()` runs the command line: by default through its `main` in this process, whether the
   * daemon runs here or in a process of its own. A test about the command's own process calls
   * `runCli`.
   */
  run: typeof runCliInProcess = runCliInProcess,
) {
  const api = (path: string, init: RequestInit = {}) =>
    fetch(new URL(`api${path}`, info.url), {
      ...init,
      headers: { authorization: `Bearer ${info.token}`, ...(init.headers ?? {}) },
    })
  const servers = async () => (await (await api('/servers')).json()) as ServerInfo[]
  const defaultSession = async () =>
    ((await (await api('/status')).json()) as StatusResponse).defaultSession
  const eventsAfter = async (session: string, after: number) =>
    (
      (await (
        await api(`/sessions/${session}/events?after=${after}&limit=10000`)
      ).json()) as EventsPage
    ).events
  const events = async (session?: string) => eventsAfter(session ?? (await defaultSession()), 0)
  /**
   * The first event of the default session that `match` accepts. Each probe reads only what was
   * stored since the last; the whole transcript again when the session changed or was compacted
   * past the cursor (the daemon then answers from the start).
   */
  const waitForEvent = (match: (event: TranscriptEvent) => boolean, timeoutMs = 10_000) => {
    let session: string | undefined
    let after = 0
    return waitFor(
      async () => {
        const current = await defaultSession()
        if (current !== session) [session, after] = [current, 0]
        const page = await eventsAfter(current, after)
        const found = page.find(match)
        after = page.at(-1)?.seq ?? after
        return found
      },
      timeoutMs,
      'a matching event',
    )
  }
  const { stateDir, configPath, workspace, userSettingsPath } = prepared
  return {
    stateDir,
    configPath,
    workspace,
    userSettingsPath,
    info,
    cli: (args: string[], cliOptions: { env?: Record<string, string>; input?: string } = {}) =>
      run(['--state-dir', stateDir, ...args], cliOptions),
    api,
    servers,
    waitForStatus: (name: string, status: ServerInfo['status'], timeoutMs = 15_000) =>
      waitFor(
        async () => (await servers()).find((s) => s.name === name && s.status === status),
        timeoutMs,
        `server ${name} to be ${status}`,
      ),
    events,
    waitForEvent,
    writeSettings: (next: unknown) => writeFile(configPath, JSON.stringify(next, null, 2)),
    stop,
  } satisfies Daemon
}

/** A daemon in a child process of its own (`ferry serve`), for what is about processes. */
export async function startDaemon(
  settings: unknown,
  options: StartOptions = {},
): Promise<TestDaemon> {
  const prepared = await prepare(settings, options)
  const { stateDir } = prepared
  // A fresh state directory takes any free port; a restart in the same one tries its previous
  // port first, as a user's daemon does.
  const port = options.stateDir === undefined ? ['--port', '0'] : []
  const args = [ferryBin, 'serve', '--state-dir', stateDir, ...port, ...(options.args ?? [])]
  if (prepared.configFile !== undefined) args.push('--config', prepared.configFile)
  // Under a limit the shell sets it, then becomes the daemon (same pid) through `exec`.
  const [command, argv] =
    options.ulimit === undefined
      ? [process.execPath, [...DAEMON_NODE_FLAGS, ...args]]
      : [
          '/bin/sh',
          [
            '-c',
            `ulimit ${options.ulimit.join(' ')} && exec "$0" "$@"`,
            process.execPath,
            ...DAEMON_NODE_FLAGS,
            ...args,
          ],
        ]
  const child = spawn(command, argv, {
    env: prepared.env,
    cwd: prepared.workspace,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    await Promise.race([exited, new Promise((r) => setTimeout(r, 12_000))])
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  }
  cleanups.push(stop)
  const info = await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`daemon exited: ${output}`)
      const runtime = await readRuntimeFile(stateDir)
      return runtime?.pid === child.pid ? runtime : undefined
    },
    15_000,
    'the daemon to start',
  ).catch((error: unknown) => {
    throw new Error(`${String(error)}\n${output}`)
  })
  return { ...surface(prepared, info, stop), process: child }
}

/**
 * A stdio server that exits with code 4 (saying why on stderr) until `fix()` is called, then
 * starts the fixture: for tests of failure reporting and reconnecting.
 */
export async function brokenUntilFixed(): Promise<{ command: string; fix(): Promise<void> }> {
  const dir = await tempDir()
  const command = `${dir}/server.sh`
  await writeFile(
    command,
    `#!/bin/sh\n[ -f "${dir}/fixed" ] || { echo "missing configuration file ${dir}/fixed" >&2; exit 4; }\nexec "${process.execPath}" "${stdioServerPath}"\n`,
  )
  await chmod(command, 0o755)
  return { command, fix: () => writeFile(`${dir}/fixed`, '') }
}

export interface RawResponse {
  status: number
  headers: IncomingHttpHeaders
  body: string
}

export interface RawRequest {
  /** The address to connect to; the daemon's own, 127.0.0.1, unless given. */
  address?: string
  method?: string
  path?: string
  headers?: Record<string, string>
  body?: string | Buffer
  /** When false, no Host header is sent unless `headers` has one. */
  setHost?: boolean
}

/** One request through node:http, which (unlike fetch) lets us forge Host and send raw paths. */
export function send(port: number, init: RawRequest = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: init.address ?? '127.0.0.1',
        port,
        method: init.method ?? 'GET',
        path: init.path ?? '/',
        headers: init.headers ?? {},
        setHost: init.setHost ?? true,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        )
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(init.body)
  })
}

/** Daemons started through `ferry start` are detached, so `cleanup` does not own them. */
const detachedPids: number[] = []

export function adoptDetached(pid: number): void {
  detachedPids.push(pid)
}

/** Stops the detached daemons a test adopted, then runs `cleanup`. */
export async function cleanupWithDetached(): Promise<void> {
  for (const pid of detachedPids.splice(0)) {
    if (!isAlive(pid)) continue
    process.kill(pid, 'SIGTERM')
    await waitFor(() => !isAlive(pid), 12_000, `pid ${pid} to exit`).catch(() =>
      process.kill(pid, 'SIGKILL'),
    )
  }
  await cleanup()
}
