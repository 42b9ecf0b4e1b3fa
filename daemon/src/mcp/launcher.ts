// Process-group launcher for stdio servers: `node launcher.js <command> [args…]`.
// It starts the server as the leader of a new process group sharing this process's stdio, and
// makes sure the whole group is gone when the server exits, when asked to stop, or when orphaned.

import { spawn } from 'node:child_process'
import { writeSync } from 'node:fs'
import { LAUNCHER_MARK } from './launcher-facts.js'

const GRACE_MS = 1500

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

function run(argv: string[]): void {
  const [command, ...args] = argv
  if (command === undefined) {
    report({ error: 'no command given' })
    process.exit(2)
  }
  const child = spawn(command, args, { stdio: 'inherit', detached: true })
  const parentAtStart = process.ppid
  let stopping = false

  const stop = (): void => {
    if (stopping || child.pid === undefined) return
    stopping = true
    killGroup(child.pid, 'SIGTERM')
    setTimeout(() => killGroup(child.pid as number, 'SIGKILL'), GRACE_MS).unref()
  }

  child.on('error', (error) => {
    report({ error: `cannot start "${command}": ${error.message}` })
    process.exit(127)
  })
  child.on('spawn', () => report({ pid: child.pid }))
  child.on('exit', (code, signal) => {
    if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL')
    report({ exit: { code, signal } })
    for (const name of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.removeAllListeners(name)
    if (signal !== null) process.kill(process.pid, signal)
    process.exit(code ?? 1)
  })
  for (const name of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(name, stop)
  // Orphaned (the daemon died without closing us): take the group down.
  setInterval(() => {
    if (process.ppid !== parentAtStart) stop()
  }, 1000)
}

run(process.argv.slice(2))
