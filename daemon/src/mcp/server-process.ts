// What Ferry knows about a stdio server's process, which the SDK's StdioClientTransport spawns with
// nothing between it and the daemon: its mark (see server-reaper.ts), how it ended (its exit code
// or signal, a spawn that failed, or the SDK dropping it for an over-long stdout line), and the end
// of everything it started. `ended()` is the one place that waits for the end.

import type { ChildProcess } from 'node:child_process'
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/client'
import type { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import type { ServerReaper } from './server-reaper.js'

/** The server command could not be started at all (`spawn` failed). */
export interface SpawnFailure {
  command: string
  /** The errno name, e.g. `ENOENT` or `EACCES`, when the system gave one. */
  code: string | null
  message: string
}

export function describeExit(exit: { code: number | null; signal: string | null }): string {
  return exit.signal !== null ? `killed by ${exit.signal}` : `exited with code ${exit.code}`
}

/** The spawn failure in `error` or its causes, e.g. the `spawn x ENOENT` the SDK passes on. */
export function spawnFailureOf(error: unknown, command: string): SpawnFailure | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; depth++) {
    const { code, syscall } = cause as NodeJS.ErrnoException
    if (typeof syscall === 'string' && syscall.startsWith('spawn')) {
      return { command, code: code ?? null, message: cause.message }
    }
    cause = cause.cause
  }
  return undefined
}

/**
 * The process the SDK spawned, which it keeps in `_process` (SDK 2.4) and does not expose; its
 * `exit` event is the only place its exit code and signal are told. `server-process.test.ts`
 * checks that the SDK still keeps it there.
 */
export function childOf(transport: StdioClientTransport): ChildProcess | undefined {
  return (transport as unknown as { _process?: ChildProcess })._process
}

/**
 * How long the transport's close waits for the process after ending its stdin, and again after
 * `SIGTERM`, before the next step: the SDK's own close waits as long.
 */
export const CLOSE_STEP_MS = 2000

/**
 * How long to wait for the end to be known once the connection closed. The `exit` event comes
 * before the SDK sees its pipes close, so it is normally already here.
 */
export const END_REPORT_WAIT_MS = 500

function exitWithin(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true)
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms)
    child.once('exit', () => {
      clearTimeout(timer)
      resolve(true)
    })
  })
}

export class ServerProcess {
  private current: string | undefined
  private exit: string | undefined
  private spawn: SpawnFailure | undefined
  private overflowed = false
  private reported: () => void = () => {}
  private report: Promise<void> = this.nextReport()

  constructor(private readonly reaper: ServerReaper) {}

  /** A new attempt: forget how the previous process ended; it gets a mark of its own. */
  reset(): void {
    this.exit = undefined
    this.spawn = undefined
    this.overflowed = false
    this.report = this.nextReport()
    this.current = undefined
  }

  /** The mark of this attempt's process (and its probe sibling), made on first use. */
  mark(): string {
    return (this.current ??= this.reaper.mark())
  }

  /**
   * Follows the attempt's transport: learns how its process ends, kills what it leaves behind, and
   * closes it by ending its stdin, then `SIGTERM`, then `SIGKILL`, each to the process and all it
   * started.
   */
  watch(transport: StdioClientTransport, command: string): void {
    const mark = this.mark()
    const start = transport.start.bind(transport)
    transport.start = async () => {
      try {
        await start()
      } catch (error) {
        this.spawn = spawnFailureOf(error, command)
        this.reported()
        throw error
      }
      childOf(transport)?.once('exit', (code, signal) => {
        this.reaper.kill(mark)
        this.exit = describeExit({ code, signal })
        this.reported()
      })
    }
    const close = transport.close.bind(transport)
    transport.close = async () => {
      const child = childOf(transport)
      if (child !== undefined) {
        child.stdin?.end()
        if (!(await exitWithin(child, CLOSE_STEP_MS))) {
          this.reaper.signal(mark, child.pid, 'SIGTERM')
          if (!(await exitWithin(child, CLOSE_STEP_MS))) {
            this.reaper.signal(mark, child.pid, 'SIGKILL')
          }
        }
      }
      await close()
      // What the probe sibling, or a process that never got this far, left behind.
      this.reaper.kill(mark)
    }
  }

  onClientError(error: Error): void {
    if (error.message.includes('ReadBuffer exceeded')) this.overflowed = true
  }

  /**
   * Resolves once it is known how the process ended, or after `waitMs` (it is still running). Call
   * it when the connection closed.
   */
  async ended(waitMs = END_REPORT_WAIT_MS): Promise<void> {
    let timer: NodeJS.Timeout | undefined
    await Promise.race([
      this.report,
      new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs))),
    ])
    clearTimeout(timer)
  }

  /** The command could not be started, if that is how it ended. */
  spawnFailure(): SpawnFailure | undefined {
    return this.spawn
  }

  /** How the process ended, e.g. `exited with code 7`, if it did. */
  describeEnd(): string | undefined {
    if (this.spawn !== undefined) return `could not start: ${this.spawn.message}`
    if (!this.overflowed) return this.exit
    const then = this.exit === undefined ? '' : ` (then ${this.exit})`
    const limit = STDIO_DEFAULT_MAX_BUFFER_SIZE / 1024 / 1024
    return `wrote a line over ${limit} MiB on stdout and was disconnected${then}`
  }

  /** Kills whatever the current attempt's process left, when the connection is closed for good. */
  killAll(): void {
    if (this.current !== undefined) this.reaper.kill(this.current)
  }

  private nextReport(): Promise<void> {
    return new Promise<void>((resolve) => (this.reported = resolve))
  }
}
