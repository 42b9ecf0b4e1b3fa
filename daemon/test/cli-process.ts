// The `ferry` binary run as a process of its own, for what is about its process: exit status,
// signals, pipes, and the commands that run for long (the daemon, the stdio bridge).

import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const ferryBin = fileURLToPath(new URL('../bin/ferry.js', import.meta.url))

/** What `pnpm start` runs: builds what is stale, then `ferry start` with its arguments. */
export const startScript = fileURLToPath(new URL('../../scripts/start.mjs', import.meta.url))

export interface CliResult {
  code: number
  stdout: string
  stderr: string
}

/** Runs the CLI; `input` is written to its stdin. */
export function runCli(
  args: string[],
  options: {
    env?: Record<string, string | undefined>
    cwd?: string
    input?: string
    /** The CLI is stopped (SIGTERM) past this; a command expected to exit at once may say less. */
    timeoutMs?: number
    /** Another script to run with the arguments instead of `ferry`, such as `pnpm start`'s. */
    script?: string
  } = {},
): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [options.script ?? ferryBin, ...args],
      {
        env: { ...process.env, ...options.env },
        cwd: options.cwd,
        timeout: options.timeoutMs ?? 60_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 99
        resolve({ code, stdout, stderr })
      },
    )
    if (options.input !== undefined) {
      child.stdin?.on('error', () => {})
      child.stdin?.end(options.input)
    }
  })
}
