// A daemon run inside the test's own process (`runDaemon`), on a private state directory, reached
// through the same real HTTP, WebSocket and MCP surface as a daemon in a process of its own; its
// `cli()` runs the command line in this process too (see cli-in-process.ts).
// For every test whose behaviour is not about the daemon's process (signals, kill -9, limits).

import { InMemoryTransport, type Transport } from '@modelcontextprotocol/client'
import type { Server } from '@modelcontextprotocol/server'
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import { serveFixtureInMemory } from '../../e2e/fixtures/in-memory.js'
import { runDaemon, type DaemonHandle } from '../src/daemon/run-daemon.js'
import type { Debounce } from '../src/gateway/list-changes.js'
import { PROBE_CAPS, type ProbeCaps } from '../src/mcp/connect-plan.js'
import { createTransport, withHooks, type TransportFactory } from '../src/mcp/transports.js'
import { onCleanup, prepare, surface, type Daemon, type StartOptions } from './harness.js'

export interface InProcessDaemon extends Daemon {
  /** The daemon's own parts, for a test that must reach behind its surface. */
  handle: DaemonHandle
}

export interface InProcessOptions extends Omit<StartOptions, 'args' | 'ulimit'> {
  /**
   * SDK servers run in this process, by the name of their settings entry: each connection to one
   * gets a new server over the SDK's in-memory transport instead of what the entry names.
   */
  inMemory?: Record<string, () => Server>
  /**
   * Wraps the daemon's end of an `inMemory` server's transport, by the same name: a test about a
   * wire that misbehaves (a send that never completes, say) changes it here.
   */
  wire?: Record<string, (transport: Transport) => Transport>
  /**
   * Unless false, every stdio fixture server (`fixture(...)`) whose flags ask nothing of a process,
   * and every App fixture server, runs in this process over the in-memory transport (see
   * e2e/fixtures/in-memory.ts); false runs
   * each in a process of its own, for a test about that process (a crash, its pid, its stderr).
   */
  fixturesInMemory?: boolean
  /** How often a gateway client waiting for a person hears that it still waits. */
  gatewayWaitingProgressMs?: number
  /** How long an era probe may wait, where a test needs it shorter than a person's daemon. */
  probeCaps?: ProbeCaps
  /** When gateway clients hear of list changes, where a test must say exactly when. */
  listChangeDebounce?: Debounce
  /** The workspace was named, as `--workspace` names it: it is every server's root. */
  workspaceDeclared?: boolean
}

/**
 * Probe caps for a test that counts a probed server's spawns: its sibling's start fits in the
 * probe even on a machine running two suites at once, where the person's 5 s may not.
 */
export const LOADED_PROBE_CAPS: ProbeCaps = { ...PROBE_CAPS, stdio: 15_000 }

/** How long such a test waits for the server to be ready: the probe and the session's start. */
export const LOADED_READY_MS = 45_000

/** Connects the servers `options` names in this process; every other one as its entry says. */
function inMemoryTransports(options: InProcessOptions): TransportFactory {
  return (config, hooks) => {
    const [client, server] = InMemoryTransport.createLinkedPair()
    const make = options.inMemory?.[config.name]
    // Served as the SDK serves stdio: either era, as the client negotiates.
    if (make !== undefined) serveStdio(make, { transport: server })
    else if (
      options.fixturesInMemory === false ||
      config.transport !== 'stdio' ||
      config.command !== process.execPath ||
      !serveFixtureInMemory(config.args, server)
    ) {
      return createTransport(config, hooks)
    }
    return withHooks(options.wire?.[config.name]?.(client) ?? client, hooks)
  }
}

/** Starts a daemon in this process; `cleanup()` stops it. */
export async function startInProcess(
  settings: unknown,
  options: InProcessOptions = {},
): Promise<InProcessDaemon> {
  const prepared = await prepare(settings, options)
  const handle = await runDaemon({
    stateDir: prepared.stateDir,
    cwd: prepared.workspace,
    workspaceDeclared: options.workspaceDeclared,
    configFile: prepared.configFile,
    env: prepared.env,
    homeDir: prepared.env.HOME ?? prepared.configDir,
    port: options.stateDir === undefined ? 0 : undefined,
    host: '127.0.0.1',
    ...(options.inMemory === undefined && options.fixturesInMemory === false
      ? {}
      : { transport: inMemoryTransports(options) }),
    gatewayWaitingProgressMs: options.gatewayWaitingProgressMs,
    probeCaps: options.probeCaps,
    listChangeDebounce: options.listChangeDebounce,
  })
  const stop = () => handle.stop('the test ended')
  onCleanup(stop)
  return { ...surface(prepared, handle.info, stop), handle }
}
