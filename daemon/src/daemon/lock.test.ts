import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { describe, expect, it } from 'vitest'
import { isAlive } from './lock.js'

function stateOf(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  return stat.charAt(stat.lastIndexOf(')') + 2)
}

describe('isAlive', () => {
  it('counts a running process as alive and a zombie its parent never collects as gone', async () => {
    // The shell starts a child, then becomes a `sleep` that never waits for it. The child exits
    // only once its parent is that `sleep`: had it exited sooner, the shell could have collected it.
    const child = `while [ "$(cat /proc/$PPID/comm)" != sleep ]; do sleep 0.01; done`
    const parent = spawn('sh', ['-c', `sh -c '${child}' & echo $!; exec sleep 30`], {
      stdio: ['ignore', 'pipe', 'ignore'],
    })
    try {
      const [line] = (await once(createInterface({ input: parent.stdout }), 'line')) as [string]
      const zombie = Number(line)
      await expect.poll(() => stateOf(zombie)).toBe('Z')
      // The pid still exists for a signal; only its state says it has exited.
      expect(() => process.kill(zombie, 0)).not.toThrow()
      expect(isAlive(zombie)).toBe(false)
      expect(isAlive(parent.pid as number)).toBe(true)
      expect(isAlive(process.pid)).toBe(true)
    } finally {
      parent.kill('SIGKILL')
    }
  })

  it('counts a pid that no longer exists as gone', async () => {
    const child = spawn('true')
    // Node has collected it by the time it says it exited.
    await once(child, 'exit')
    expect(isAlive(child.pid as number)).toBe(false)
  })
})
