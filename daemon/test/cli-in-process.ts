// The `ferry` command line run inside the test's own process: the same `main` the binary runs,
// with the test's environment and its own stdin, stdout and stderr. For commands that end by
// themselves; the binary's own process (exit status, signals, pipes) is tested with `runCli`.

import { Readable, Writable } from 'node:stream'
import { main } from '../src/cli/main.js'
import type { CliIo } from '../src/cli/context.js'
import { runCli, type CliResult } from './cli-process.js'

/** Commands that are a process of their own: the daemon and the stdio bridge. */
const PROCESS_COMMANDS = new Set(['serve', 'mcp'])

function collector(append: (text: string) => void): Writable {
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      append(chunk.toString())
      done()
    },
  })
}

/** Runs `ferry <args>` in this process; `input` is its whole stdin. */
export async function runCliInProcess(
  args: string[],
  options: { env?: Record<string, string | undefined>; cwd?: string; input?: string } = {},
): Promise<CliResult> {
  if (args.some((arg) => PROCESS_COMMANDS.has(arg))) return runCli(args, options)
  let stdout = ''
  let stderr = ''
  const io: CliIo = {
    env: { ...process.env, ...options.env },
    cwd: options.cwd ?? process.cwd(),
    stdin: Readable.from(options.input === undefined ? [] : [options.input]),
    stdout: collector((text) => (stdout += text)),
    stderr: collector((text) => (stderr += text)),
    // Nothing here sends a signal: a command that waits for one is run with `runCli`.
    onInterrupt: () => {},
  }
  const code = await main([process.execPath, 'ferry', ...args], io)
  return { code, stdout, stderr }
}
