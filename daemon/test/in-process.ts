// A daemon run inside the test's own process (`runDaemon`), on a private state directory, reached
// through the same real HTTP, WebSocket, MCP and CLI surface as a daemon in a process of its own.
// For every test whose behaviour is not about the daemon's process (signals, kill -9, limits).

import { runDaemon, type DaemonHandle } from '../src/daemon/run-daemon.js'
import { onCleanup, prepare, surface, type Daemon, type StartOptions } from './harness.js'

export interface InProcessDaemon extends Daemon {
  /** The daemon's own parts, for a test that must reach behind its surface. */
  handle: DaemonHandle
}

/** Starts a daemon in this process; `cleanup()` stops it. */
export async function startInProcess(
  settings: unknown,
  options: Omit<StartOptions, 'args' | 'ulimit'> = {},
): Promise<InProcessDaemon> {
  const prepared = await prepare(settings, options)
  const handle = await runDaemon({
    stateDir: prepared.stateDir,
    cwd: prepared.workspace,
    configFile: prepared.configFile,
    env: prepared.env,
    homeDir: prepared.env.HOME ?? prepared.configDir,
    port: options.stateDir === undefined ? 0 : undefined,
    host: '127.0.0.1',
  })
  const stop = () => handle.stop('the test ended')
  onCleanup(stop)
  return { ...surface(prepared, handle.info, stop), handle }
}
