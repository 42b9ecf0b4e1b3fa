// Linux only: makes the launcher a child subreaper, so a server's descendants that leave its
// process group (setsid, double fork) are reparented to the launcher instead of init, and finds
// and signals every descendant through /proc. Elsewhere `enableSubreaper` returns null.

import { readdirSync, readFileSync } from 'node:fs'

const PR_SET_CHILD_SUBREAPER = 36
const WNOHANG = 1

export interface Subreaper {
  /** Signals every live descendant of this process, however far it strayed from the group. */
  signalDescendants(signal: NodeJS.Signals): number
  /** Collects adopted descendants that exited, except `keep` (the one Node waits for itself). */
  reapAdopted(keep: number | undefined): void
}

interface ProcEntry {
  pid: number
  ppid: number
  zombie: boolean
}

function processTable(): ProcEntry[] {
  const table: ProcEntry[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      // The command name is in parentheses and may hold spaces or parentheses itself.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      table.push({ pid: Number(name), ppid: Number(fields[1]), zombie: fields[0] === 'Z' })
    } catch {
      // Gone between the listing and the read.
    }
  }
  return table
}

function descendantsOf(root: number, table: ProcEntry[]): ProcEntry[] {
  const children = new Map<number, ProcEntry[]>()
  for (const entry of table) {
    const list = children.get(entry.ppid) ?? []
    list.push(entry)
    children.set(entry.ppid, list)
  }
  const found: ProcEntry[] = []
  const queue = [root]
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    for (const child of children.get(pid) ?? []) {
      found.push(child)
      queue.push(child.pid)
    }
  }
  return found
}

/** Returns null where the kernel or libc offers no subreaper (not Linux, or prctl failed). */
export async function enableSubreaper(): Promise<Subreaper | null> {
  if (process.platform !== 'linux') return null
  let waitpid: (pid: number, status: number[], options: number) => number
  try {
    const { default: koffi } = await import('koffi')
    const libc = koffi.load('libc.so.6')
    const prctl = libc.func(
      'int prctl(int option, unsigned long a2, unsigned long a3, unsigned long a4, unsigned long a5)',
    ) as (option: number, a2: number, a3: number, a4: number, a5: number) => number
    if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) !== 0) return null
    waitpid = libc.func('int waitpid(int pid, _Out_ int *status, int options)') as typeof waitpid
  } catch {
    return null
  }
  return {
    signalDescendants(signal) {
      let signalled = 0
      for (const entry of descendantsOf(process.pid, processTable())) {
        if (entry.zombie) continue
        try {
          process.kill(entry.pid, signal)
          signalled++
        } catch {}
      }
      return signalled
    },
    reapAdopted(keep) {
      for (const entry of processTable()) {
        if (entry.ppid !== process.pid || !entry.zombie || entry.pid === keep) continue
        waitpid(entry.pid, [0], WNOHANG)
      }
    },
  }
}
