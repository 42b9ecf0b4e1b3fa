// What every command needs to know about where it runs: state directory, config file, output.
// Output goes through terminalText, so no control sequence from a server reaches the terminal.

import { homedir } from 'node:os'
import { resolveStateDir } from '../daemon/state-dir.js'
import { terminalText } from './terminal-text.js'

export interface CliContext {
  stateDir: string
  configFile: string | undefined
  cwd: string
  env: Record<string, string | undefined>
  homeDir: string
  out: (text: string) => void
  err: (text: string) => void
}

/**
 * What a closed stdout or stderr (`ferry start | head -1`) does: the reader has what it wanted, so
 * the command ends quietly with exit 0. `ferry serve` is the daemon: it keeps running instead.
 */
export const closedPipe = { end: (): void => process.exit(0) }

let watchingPipes = false

/** Makes a write to a closed pipe end the command as `closedPipe` says, for every command. */
export function endQuietlyOnClosedPipe(): void {
  if (watchingPipes) return
  watchingPipes = true
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error
      closedPipe.end()
    })
  }
}

export interface GlobalOptions {
  stateDir?: string
  config?: string
}

export function cliContext(options: GlobalOptions): CliContext {
  const env = process.env
  const configFile = options.config ?? (env.FERRY_CONFIG || undefined)
  return {
    stateDir: resolveStateDir(options.stateDir, env, homedir()),
    configFile,
    cwd: process.cwd(),
    env,
    homeDir: homedir(),
    out: (text) => process.stdout.write(`${terminalText(text)}\n`),
    err: (text) => process.stderr.write(`${terminalText(text)}\n`),
  }
}
