// Real terminals for the CLI tests: `ferry` under `script` (a pseudo-terminal whose every byte the
// test reads back), or in a tmux pane the test types into and reads the screen of.

import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { rm } from 'node:fs/promises'
import { createInterface } from 'node:readline'
import { promisify } from 'node:util'
import { ferryBin, tempDir, type Daemon } from './harness.js'

const exec = promisify(execFile)

const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`

function ferryLine(daemon: Daemon, args: string[]): string {
  return [process.execPath, ferryBin, '--state-dir', daemon.stateDir, ...args].map(quote).join(' ')
}

export interface PtyRun {
  /** Every byte the command wrote to its terminal (stdout and stderr both). */
  bytes: Buffer
  /** The command's exit code, or null when it was stopped. */
  code: number | null
}

export interface PtyProcess {
  /** What the command wrote so far, as text. */
  output(): string
  /** Resolves once what the command wrote satisfies `test`. */
  waitForOutput(what: string, test: (text: string) => boolean): Promise<void>
  /** Resolves when the command exits by itself. */
  exited: Promise<PtyRun>
  /** Ends the command (SIGTERM to `script`, which passes it on) and returns what it wrote. */
  stop(): Promise<PtyRun>
}

/** Starts `ferry <args>` on a pseudo-terminal of its own: stdin, stdout and stderr are the terminal. */
export function startInPty(daemon: Daemon, args: string[]): PtyProcess {
  // The bytes are read from script's stdout: its log file (the last argument) is not wanted.
  const command = ['--quiet', '--return', '--command', ferryLine(daemon, args), '/dev/null']
  const child = spawn('script', command, {
    env: { ...process.env, TERM: 'xterm-256color' },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  running.add(child)
  const chunks: Buffer[] = []
  const bytes = () => Buffer.concat(chunks)
  const waiters = new Set<() => void>()
  let stopped = false
  const exited = new Promise<PtyRun>((resolve, reject) => {
    child.once('error', (error) =>
      reject(new Error('these tests need `script` from util-linux', { cause: error })),
    )
    child.once('exit', (code) => {
      running.delete(child)
      for (const waiter of waiters) waiter()
      resolve({ bytes: bytes(), code: stopped ? null : code })
    })
  })
  child.stdout.on('data', (chunk: Buffer) => {
    chunks.push(chunk)
    for (const waiter of waiters) waiter()
  })
  const output = () => bytes().toString('utf8')
  return {
    output,
    exited,
    waitForOutput: (what, test) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => settle(new Error(`timed out waiting for ${what}`)), 30_000)
        const settle = (error?: Error) => {
          clearTimeout(timer)
          waiters.delete(check)
          if (error === undefined) resolve()
          else reject(new Error(`${error.message}; ferry ${args.join(' ')} wrote:\n${output()}`))
        }
        const check = () => {
          if (test(output())) settle()
          else if (child.exitCode !== null || child.signalCode !== null) {
            settle(new Error(`ferry ${args.join(' ')} exited before ${what}`))
          }
        }
        waiters.add(check)
        check()
      }),
    stop: () => {
      stopped = true
      child.kill('SIGTERM')
      return exited
    },
  }
}

/** Runs `ferry <args>` on a pseudo-terminal of its own until it exits. */
export async function runInPty(daemon: Daemon, args: string[]): Promise<PtyRun> {
  const run = startInPty(daemon, args)
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`ferry ${args.join(' ')} did not exit; it wrote:\n${run.output()}`))
    }, 30_000)
  })
  try {
    return await Promise.race([run.exited, timeout])
  } finally {
    clearTimeout(timer)
  }
}

const running = new Set<ChildProcess>()

/** Kills what `startInPty` started and has not ended (call it after each test). */
export function stopPtys(): void {
  for (const child of running) child.kill('SIGKILL')
  running.clear()
}

/**
 * The ESC and C1 characters in what was written to a terminal, with some context each, leaving
 * out the sequences in `own` (the command's own drawing); bytes that are not UTF-8 (such as a raw
 * 8-bit C1 control) make it throw.
 */
export function controlCharacters(bytes: Buffer, own?: RegExp): string[] {
  const written = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  const text = own === undefined ? written : written.replace(own, '')
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  return [...text.matchAll(/[\u001b\u0080-\u009f]/g)].map(
    (match) =>
      `U+${match[0].charCodeAt(0).toString(16).padStart(4, '0')} in ${JSON.stringify(text.slice(Math.max(0, match.index - 20), match.index + 20))}`,
  )
}

export interface Terminal {
  /** Types text literally. */
  type(text: string): Promise<void>
  /** Presses keys by tmux name: Enter, Tab, C-c… */
  press(...keys: string[]): Promise<void>
  screen(): Promise<string>
  waitForScreen(what: string, test: (screen: string) => boolean): Promise<string>
  /** Runs a tmux command on this terminal's private server. */
  tmux(...args: string[]): Promise<string>
  /** The pane's target, for tmux commands that take `-t`. */
  target: string
}

/** The open tmux server: its socket name and the directory that holds the socket. */
let tmuxServer:
  | { socket: string; env: NodeJS.ProcessEnv; dir: string; control: ChildProcess }
  | undefined

/** Ends the tmux server `openTerminal` started, if any (call it after each test). */
export async function closeTerminal(): Promise<void> {
  const server = tmuxServer
  tmuxServer = undefined
  if (server === undefined) return
  await exec('tmux', ['-L', server.socket, 'kill-server'], { env: server.env }).catch(() => {})
  server.control.kill()
  await rm(server.dir, { recursive: true, force: true })
}

/** How long a pane must stay without output for its screen to count as drawn. */
const SETTLE_MS = 20
/** How long `waitForScreen` waits for the screen it is told to expect. */
const SCREEN_WAIT_MS = 10_000

/** A tmux control-mode client of a session (see `attachControl`). */
interface ControlClient {
  child: ChildProcess
  /** Runs one tmux command and returns its output, one line per line and each ending in `\n`. */
  run(command: string): Promise<string>
  /** Resolves true at the pane's next output, or false after `ms` without any. */
  changed(ms: number): Promise<boolean>
}

/**
 * Attaches a control-mode client (`tmux -C`) to `session`: commands go over its stdin and come back
 * between `%begin` and `%end` lines, with no tmux process started per command, and its `%output`
 * notifications say when the pane was written to, so a wait reads the screen only then.
 */
function attachControl(socket: string, session: string, env: NodeJS.ProcessEnv): ControlClient {
  const child = spawn(
    'tmux',
    ['-L', socket, '-f', '/dev/null', '-C', 'attach-session', '-t', session],
    {
      env,
      stdio: ['pipe', 'pipe', 'ignore'],
    },
  )
  const pending: { resolve: (text: string) => void; reject: (error: Error) => void }[] = []
  let wakers: (() => void)[] = []
  const wake = () => {
    const now = wakers
    wakers = []
    for (const waker of now) waker()
  }
  let block: string[] | undefined
  // A block's last field is 1 for a command this client sent; the attach's own block has 0.
  let ours = false
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (block !== undefined) {
      const end = /^%(end|error) \d+ \d+ \d+$/.exec(line)
      if (end === null) {
        block.push(line)
        return
      }
      const text = block.map((row) => `${row}\n`).join('')
      block = undefined
      if (!ours) return
      const waiting = pending.shift()
      if (end[1] === 'end') waiting?.resolve(text)
      else waiting?.reject(new Error(`tmux: ${text.trim()}`))
    } else if (line.startsWith('%begin ')) {
      block = []
      ours = line.endsWith(' 1')
    } else if (line.startsWith('%output ')) {
      wake()
    }
  })
  child.on('exit', () => {
    for (const waiting of pending.splice(0)) waiting.reject(new Error('tmux control client ended'))
    wake()
  })
  return {
    child,
    run: (command) =>
      new Promise((resolve, reject) => {
        pending.push({ resolve, reject })
        child.stdin!.write(`${command}\n`)
      }),
    changed: (ms) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), ms)
        wakers.push(() => {
          clearTimeout(timer)
          resolve(true)
        })
      }),
  }
}

/** `ferry attach` (or another command) in a 120×40 tmux pane; the shell reports its exit code. */
export async function openTerminal(
  daemon: Daemon,
  args: string[] = [],
  command: string[] = ['attach'],
): Promise<Terminal> {
  await exec('tmux', ['-V']).catch((error: unknown) => {
    throw new Error('these tests drive a real terminal through tmux: apt-get install -y tmux', {
      cause: error,
    })
  })
  const name = `ferry-tui-${process.pid}-${Date.now()}`
  // A private server (-L) whose socket sits in a directory of its own, removed afterwards.
  const dir = await tempDir('ferry-tmux-')
  // CI=true makes Ink draw only a final frame unless the attach screen undoes it: it stays set so
  // that the tests prove the screen works there too.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TMUX_TMPDIR: dir,
    CI: 'true',
    TERM: 'xterm-256color',
  }
  delete env.TMUX
  const tmux = async (...rest: string[]) =>
    (await exec('tmux', ['-L', name, '-f', '/dev/null', ...rest], { env })).stdout
  await tmux(
    'new-session',
    '-d',
    '-s',
    name,
    '-x',
    '120',
    '-y',
    '40',
    `${ferryLine(daemon, [...command, ...args])}; echo "ferry exited with $?"; sleep 60`,
  )
  const control = attachControl(name, name, env)
  tmuxServer = { socket: name, env, dir, control: control.child }
  const screen = () => control.run(`capture-pane -p -t ${name}`)
  return {
    type: async (text) => void (await tmux('send-keys', '-t', name, '-l', text)),
    press: async (...keys) => void (await tmux('send-keys', '-t', name, ...keys)),
    screen,
    tmux,
    target: name,
    async waitForScreen(what, test) {
      const deadline = Date.now() + SCREEN_WAIT_MS
      let last = ''
      for (;;) {
        // Listening from before the read: a screen counts once no output came from just before it
        // was read until SETTLE_MS after, so a frame drawn in several writes is read whole.
        const moving = control.changed(SETTLE_MS)
        last = await screen()
        const moved = await moving
        if (!moved && test(last)) return last
        if (Date.now() >= deadline) {
          throw new Error(
            `timed out after ${SCREEN_WAIT_MS} ms waiting for ${what}\n--- screen ---\n${last}`,
          )
        }
        if (!moved) await control.changed(250)
      }
    },
  }
}
