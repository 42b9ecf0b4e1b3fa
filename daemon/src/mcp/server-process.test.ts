import { spawn } from 'node:child_process'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { describe, expect, it } from 'vitest'
import { isAlive } from '../daemon/lock.js'
import { childOf, spawnFailureOf } from './server-process.js'
import { SERVER_MARK_VAR, ServerReaper } from './server-reaper.js'

const IDLE = ['-e', 'setInterval(() => {}, 1000)']
/** Ends when its stdin does, as a stdio server should. */
const SERVER = ['-e', "process.stdin.on('end', () => process.exit(0)).resume()"]

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 20))
}

describe('a stdio server process', () => {
  it('is the SDK transport’s own child, whose exit Ferry can follow', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: SERVER })
    await transport.start()
    const child = childOf(transport)
    expect(child?.pid).toBe(transport.pid)
    const exited = new Promise((resolve) => child?.once('exit', (code) => resolve(code)))
    await transport.close()
    expect(await exited).toBe(0)
  })

  it('names a command that cannot be spawned from the error the SDK passes on', async () => {
    const transport = new StdioClientTransport({ command: 'ferry-no-such-command', args: [] })
    const error = await transport.start().then(
      () => undefined,
      (failure: unknown) => failure,
    )
    expect(spawnFailureOf(error, 'ferry-no-such-command')).toMatchObject({
      command: 'ferry-no-such-command',
      code: 'ENOENT',
    })
    expect(spawnFailureOf(new Error('closed'), 'x')).toBeUndefined()
  })

  it.runIf(process.platform === 'linux')(
    'kills what carries its mark, in any session, and leaves everything else',
    async () => {
      const reaper = new ServerReaper()
      const mark = reaper.mark()
      const other = reaper.mark()
      const start = (value: string) =>
        spawn(process.execPath, IDLE, {
          env: { ...process.env, [SERVER_MARK_VAR]: value },
          detached: true,
          stdio: 'ignore',
        })
      const marked = start(mark)
      const spared = start(other)
      const exited = new Promise((resolve) => marked.once('exit', resolve))
      try {
        await until(() => marked.pid !== undefined && spared.pid !== undefined)
        reaper.kill(mark)
        await exited
        expect(isAlive(spared.pid ?? 0)).toBe(true)
      } finally {
        reaper.close()
        await until(() => spared.exitCode !== null || spared.signalCode !== null)
      }
    },
  )
})
