// What the process-group launcher reports on stderr.

/** Lines on stderr that start with this mark carry launcher facts, not server output. */
export const LAUNCHER_MARK = '\u001eferry-launcher '

/** The server command could not be started at all (`spawn` failed). */
export interface SpawnFailure {
  command: string
  /** The errno name, e.g. `ENOENT` or `EACCES`, when the system gave one. */
  code: string | null
  message: string
}

export type LauncherFact =
  | { pid: number }
  | { exit: { code: number | null; signal: string | null } }
  | { spawnFailed: SpawnFailure }
  | { error: string }

export function parseLauncherFact(line: string): LauncherFact | null {
  if (!line.startsWith(LAUNCHER_MARK)) return null
  try {
    const fact: unknown = JSON.parse(line.slice(LAUNCHER_MARK.length))
    return typeof fact === 'object' && fact !== null ? (fact as LauncherFact) : null
  } catch {
    return null
  }
}

export function describeExit(exit: { code: number | null; signal: string | null }): string {
  return exit.signal !== null ? `killed by ${exit.signal}` : `exited with code ${exit.code}`
}
