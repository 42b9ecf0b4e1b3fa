// Finds and ends what a stdio server started, with no process standing between the daemon and the
// server. Each server process starts with `FERRY_SERVER=<daemon tag>/<n>` in its environment, and
// everything it starts inherits that mark, whatever process group or session it moves to
// (`setsid`, a double fork); on Linux the processes that carry a mark are found through /proc. A
// guard, a shell waiting on a pipe only the daemon holds, ends every process carrying the daemon's
// tag once that pipe closes, so they end even when the daemon is killed with SIGKILL. Where there
// is no /proc, a server's processes are those still below it, and there is no guard.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import type { Writable } from 'node:stream'

/** The environment variable that marks a stdio server and everything it starts. */
export const SERVER_MARK_VAR = 'FERRY_SERVER'

const hasProc = process.platform === 'linux'

/**
 * The guard's script: `$1` is the mark's variable, `$2` the daemon's tag. It ignores the signals a
 * terminal or a service manager sends the daemon's group, waits until its stdin (the daemon's end
 * of the pipe) closes, then asks every marked process to end and kills what is left a second later.
 */
const GUARD_SCRIPT = `trap '' HUP INT TERM
while read -r _; do :; done
for signal in TERM KILL KILL; do
  pids=$(grep -lsz "^$1=$2/" /proc/[0-9]*/environ | sed -n 's#^/proc/\\([0-9]*\\)/environ$#\\1#p')
  [ -n "$pids" ] || exit 0
  kill -s "$signal" $pids 2>/dev/null
  sleep 1
done`

/** The pids of the processes whose mark `matches`, read from /proc (this user's processes only). */
function markedPids(matches: (mark: string) => boolean): number[] {
  const prefix = `${SERVER_MARK_VAR}=`
  const found: number[] = []
  for (const name of readdirSync('/proc')) {
    const pid = Number(name)
    if (!Number.isInteger(pid) || pid === process.pid) continue
    let environ: string
    try {
      environ = readFileSync(`/proc/${name}/environ`, 'latin1')
    } catch {
      continue // gone since the listing, or another user's
    }
    for (const entry of environ.split('\0')) {
      if (entry.startsWith(prefix) && matches(entry.slice(prefix.length))) {
        found.push(pid)
        break
      }
    }
  }
  return found
}

/** The processes below `root` (not `root` itself), from `ps`, where there is no /proc. */
function descendantPids(root: number): number[] {
  let listing: string
  try {
    listing = execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' })
  } catch {
    return []
  }
  const children = new Map<number, number[]>()
  for (const line of listing.split('\n')) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number)
    if (pid === undefined || ppid === undefined || Number.isNaN(pid)) continue
    children.set(ppid, [...(children.get(ppid) ?? []), pid])
  }
  const found: number[] = []
  for (let queue = [root], pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    for (const child of children.get(pid) ?? []) {
      found.push(child)
      queue.push(child)
    }
  }
  return found
}

function signalAll(pids: readonly number[], signal: NodeJS.Signals): number {
  let signalled = 0
  for (const pid of pids) {
    try {
      process.kill(pid, signal)
      signalled++
    } catch {}
  }
  return signalled
}

/** Rounds of "kill everything marked", for processes forked during the round before. */
const FINAL_ROUNDS = 5

/** Kills every process whose mark `matches`, in rounds until none is left (Linux only). */
function killMarked(matches: (mark: string) => boolean): void {
  if (!hasProc) return
  for (let round = 0; round < FINAL_ROUNDS; round++) {
    if (signalAll(markedPids(matches), 'SIGKILL') === 0) return
  }
}

/** One daemon's marks and its guard. */
export class ServerReaper {
  /** Tells this daemon's servers from those of another daemon, even one in the same process. */
  private readonly tag = randomBytes(6).toString('hex')
  private count = 0
  private guard: ChildProcess | undefined

  constructor(private readonly onGuardError: (error: Error) => void = () => {}) {}

  /** A mark for one server process (and the probe sibling spawned with the same settings). */
  mark(): string {
    this.startGuard()
    return `${this.tag}/${++this.count}`
  }

  /**
   * Sends `signal` to every process carrying `mark`, and to `root` (the server, when it still runs)
   * and what is below it. Returns how many were signalled.
   */
  signal(mark: string, root: number | undefined, signal: NodeJS.Signals): number {
    const pids = new Set(hasProc ? markedPids((found) => found === mark) : [])
    if (root !== undefined) {
      pids.add(root)
      if (!hasProc) for (const pid of descendantPids(root)) pids.add(pid)
    }
    return signalAll([...pids], signal)
  }

  /** Kills everything that carries `mark` (what a server that ended left behind). */
  kill(mark: string): void {
    killMarked((found) => found === mark)
  }

  /** Kills whatever still carries this daemon's tag, and lets the guard go. */
  close(): void {
    killMarked((found) => found.startsWith(`${this.tag}/`))
    const stdin = this.guard?.stdin as Writable | null | undefined
    stdin?.end()
    this.guard = undefined
  }

  /** Started with the first server, so a daemon without stdio servers runs none. */
  private startGuard(): void {
    if (!hasProc || this.guard !== undefined) return
    const guard = spawn('sh', ['-c', GUARD_SCRIPT, 'ferry-guard', SERVER_MARK_VAR, this.tag], {
      stdio: ['pipe', 'ignore', 'ignore'],
      // Its own session: a signal to the daemon's process group does not reach it.
      detached: true,
    })
    guard.on('error', (error) => this.onGuardError(error))
    guard.stdin?.on('error', () => {})
    // It never keeps the daemon running; it outlives the daemon on purpose.
    guard.unref()
    ;(guard.stdin as unknown as { unref?: () => void } | null)?.unref?.()
    this.guard = guard
  }
}
