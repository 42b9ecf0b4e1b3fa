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
