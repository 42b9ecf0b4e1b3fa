// Process-group launcher for stdio servers: `node launcher.js <command> [args…]`.
// It starts the server as the leader of a new process group sharing this process's stdio, and
// makes sure the whole group is gone when the server exits, when asked to stop, or when orphaned.
// On Linux it is also a subreaper, so descendants that left the group are found and ended too.

import { spawn } from 'node:child_process'
import { writeSync } from 'node:fs'
import { LAUNCHER_MARK } from './launcher-facts.js'
import { enableSubreaper, type Subreaper } from './subreaper.js'

const GRACE_MS = 1500
/** Rounds of "signal every descendant" at the end, for descendants forked during the last round. */
const FINAL_ROUNDS = 5

function report(fact: Record<string, unknown>): void {
  // writeSync leaves the shared pipe's blocking mode alone, unlike process.stderr.
  try {
    writeSync(2, `${LAUNCHER_MARK}${JSON.stringify(fact)}\n`)
  } catch {}
}

function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal)
  } catch {}
}

function killAll(pgid: number | undefined, reaper: Subreaper | null): void {
  if (pgid !== undefined) killGroup(pgid, 'SIGKILL')
  for (let round = 0; round < FINAL_ROUNDS; round++) {
    if (reaper === null || reaper.signalDescendants('SIGKILL') === 0) return
  }
}

async function run(argv: string[]): Promise<void> {
  const [command, ...args] = argv
  if (command === undefined) {
    report({ error: 'no command given' })
    process.exit(2)
  }
  // Before the spawn, so every descendant the server ever has is reparented here.
  const reaper = await enableSubreaper()
  const child = spawn(command, args, { stdio: 'inherit', detached: true })
  const parentAtStart = process.ppid
  let stopping = false

  const stop = (): void => {
    if (stopping || child.pid === undefined) return
    stopping = true
    killGroup(child.pid, 'SIGTERM')
    reaper?.signalDescendants('SIGTERM')
    setTimeout(() => killAll(child.pid, reaper), GRACE_MS).unref()
  }

  child.on('error', (error: NodeJS.ErrnoException) => {
    report({
      spawnFailed: { command, code: error.code ?? null, message: error.message },
    })
    process.exit(127)
  })
  child.on('spawn', () => report({ pid: child.pid }))
  child.on('exit', (code, signal) => {
    killAll(child.pid, reaper)
    report({ exit: { code, signal } })
    for (const name of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.removeAllListeners(name)
    if (signal !== null) process.kill(process.pid, signal)
    process.exit(code ?? 1)
  })
  for (const name of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(name, stop)
  // Adopted descendants that exit become zombies of this process; Node waits only for its own.
  if (reaper !== null) process.on('SIGCHLD', () => reaper.reapAdopted(child.pid))
  // Orphaned (the daemon died without closing us): take the group down.
  setInterval(() => {
    if (process.ppid !== parentAtStart) stop()
  }, 1000)
}

await run(process.argv.slice(2))
