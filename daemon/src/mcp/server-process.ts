// What Ferry knows about a stdio server's process: its process group (from the launcher) and how
// it ended (the launcher's exit report, or the SDK dropping it for an over-long stdout line).

import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/client'
import { describeExit, type LauncherFact } from './launcher-facts.js'

export class ServerProcess {
  private group: number | undefined
  private exit: string | undefined
  private overflowed = false

  /** A new attempt: forget how the previous process ended (its group is gone or still ours). */
  reset(): void {
    this.exit = undefined
    this.overflowed = false
  }

  onFact(fact: LauncherFact): void {
    if ('pid' in fact) this.group = fact.pid
    else if ('exit' in fact) {
      // The launcher has already taken the group down; never signal a pgid that may be reused.
      this.group = undefined
      this.exit = describeExit(fact.exit)
    }
  }

  onClientError(error: Error): void {
    if (error.message.includes('ReadBuffer exceeded')) this.overflowed = true
  }

  /** How the process ended, e.g. `exited with code 7`, if it did. */
  describeEnd(): string | undefined {
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
}
