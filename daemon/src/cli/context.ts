// What every command needs to know about where it runs: state directory, config file, output.
// Output goes through terminalText, so no control sequence from a server reaches the terminal.

import { homedir } from 'node:os'
import { resolveStateDir } from '../daemon/state-dir.js'
import { terminalText } from './terminal-text.js'

/**
 * What a command reads and writes besides the daemon: the process's own environment and streams
 * (`processIo`), or, for a command run inside another program, that program's.
 */
export interface CliIo {
  env: Record<string, string | undefined>
  cwd: string
  stdin: NodeJS.ReadableStream & { isTTY?: boolean }
  stdout: NodeJS.WritableStream & { isTTY?: boolean }
  stderr: NodeJS.WritableStream & { isTTY?: boolean }
  /** Calls `stop` on Ctrl-C or SIGTERM, once for each. */
  onInterrupt(stop: () => void): void
}

export interface CliContext {
  stateDir: string
  configFile: string | undefined
  homeDir: string
  io: CliIo
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
function endQuietlyOnClosedPipe(): void {
  if (watchingPipes) return
  watchingPipes = true
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error
      closedPipe.end()
    })
  }
}

/** The `ferry` process's own environment, working directory, streams and signals. */
export function processIo(): CliIo {
  endQuietlyOnClosedPipe()
  return {
    env: process.env,
    cwd: process.cwd(),
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    onInterrupt: (stop) => {
      process.once('SIGINT', stop)
      process.once('SIGTERM', stop)
    },
  }
}

export interface GlobalOptions {
  stateDir?: string
  config?: string
}

export function cliContext(options: GlobalOptions, io: CliIo): CliContext {
  const { env } = io
  const configFile = options.config ?? (env.FERRY_CONFIG || undefined)
  const homeDir = env.HOME || homedir()
  return {
    stateDir: resolveStateDir(options.stateDir, env, homeDir),
    configFile,
    homeDir,
    io,
    out: (text) => io.stdout.write(`${terminalText(text)}\n`),
    err: (text) => io.stderr.write(`${terminalText(text)}\n`),
  }
}
