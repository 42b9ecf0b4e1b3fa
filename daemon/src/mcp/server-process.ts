// What Ferry knows about a stdio server's process: its process group (from the launcher) and how
// it ended (the launcher's exit or spawn-failure report, or the SDK dropping it for an over-long
// stdout line). `ended()` is the one place that waits for that report.

import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/client'
import { describeExit, type LauncherFact, type SpawnFailure } from './launcher-facts.js'

/**
 * How long to wait for the launcher's report once the connection closed. The launcher writes it
 * before exiting, so it is normally already here; only a launcher killed outright never sends it.
 */
export const END_REPORT_WAIT_MS = 500

export class ServerProcess {
  private group: number | undefined
  private exit: string | undefined
  private spawn: SpawnFailure | undefined
  private overflowed = false
  private reported: () => void = () => {}
  private report: Promise<void> = this.nextReport()

  /** A new attempt: forget how the previous process ended (its group is gone or still ours). */
  reset(): void {
    this.exit = undefined
    this.spawn = undefined
    this.overflowed = false
    this.report = this.nextReport()
  }

  onFact(fact: LauncherFact): void {
    if ('pid' in fact) this.group = fact.pid
    else if ('exit' in fact) {
      // The launcher has already taken the group down; never signal a pgid that may be reused.
      this.group = undefined
      this.exit = describeExit(fact.exit)
      this.reported()
    } else if ('spawnFailed' in fact) {
      this.spawn = fact.spawnFailed
      this.reported()
    }
  }

  onClientError(error: Error): void {
    if (error.message.includes('ReadBuffer exceeded')) this.overflowed = true
  }

  /**
   * Resolves once the launcher said how the process ended, or after `waitMs` (the launcher was
   * killed outright, or the process is still running). Call it when the connection closed.
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

  /** The launcher normally takes the group down; if it was itself killed first, do it here. */
  killGroup(): void {
    if (this.group === undefined) return
    try {
      process.kill(-this.group, 'SIGKILL')
    } catch {}
    this.group = undefined
  }

  private nextReport(): Promise<void> {
    return new Promise<void>((resolve) => (this.reported = resolve))
  }
}
