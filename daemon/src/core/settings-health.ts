// Whether the settings last asked for could be read: a failed reload's problem (where, in which
// file) is logged, told to every listener and kept until a reload reads the settings cleanly again.

import { errorMessage, FerryError } from '../errors.js'
import type { Log } from '../log.js'
import type { SettingsProblem } from '../protocol/index.js'

/** Told of each failed reload's problem, and `null` once the settings read cleanly again. */
export type SettingsListener = (problem: SettingsProblem | null) => void

export class SettingsHealth {
  private current: SettingsProblem | null = null
  private readonly listeners = new Set<SettingsListener>()

  constructor(private readonly log: Log) {}

  /** The last reload's problem while no later reload has read the settings; null otherwise. */
  get problem(): SettingsProblem | null {
    return this.current
  }

  on(listener: SettingsListener): void {
    this.listeners.add(listener)
  }

  /** A reload could not read the settings; the settings read before stay in force. */
  failed(error: unknown): void {
    const problem = problemOf(error)
    this.current = problem
    const { file, line, column, message } = problem
    this.log({ kind: 'settings.reload_failed', error: message, file, line, column })
    for (const listener of this.listeners) listener(problem)
  }

  /** A reload read the settings; a problem told before is over. */
  read(): void {
    if (this.current === null) return
    this.current = null
    this.log({ kind: 'settings.recovered' })
    for (const listener of this.listeners) listener(null)
  }
}

function problemOf(error: unknown): SettingsProblem {
  const details = error instanceof FerryError ? (error.details ?? {}) : {}
  const position = (value: unknown) =>
    typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null
  return {
    file: typeof details.file === 'string' ? details.file : null,
    line: position(details.line),
    column: position(details.column),
    message: errorMessage(error),
  }
}
