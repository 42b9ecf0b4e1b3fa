// A start that fails part-way releases everything it took (listeners, lock, sessions), says why
// on stderr and in daemon.log, and exits 2; `ferry start` passes the reason on in one line.

import { createServer, type Server } from 'node:net'
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, runCli, tempDir, type CliResult } from './harness.js'

afterEach(cleanup)

function listenOn(port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(port, host, () => resolve(server))
  })
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()))
}

/** A port that is free on both loopback families right now. */
async function freePort(): Promise<number> {
  const probe = await listenOn(0, '127.0.0.1')
  const port = (probe.address() as { port: number }).port
  await closeServer(probe)
  const other = await listenOn(port, '::1').catch(() => undefined)
  if (other !== undefined) await closeServer(other)
  return port
}

async function settingsFile(): Promise<string> {
  const path = join(await tempDir('ferry-config-'), 'settings.json')
  await writeFile(path, JSON.stringify({ mcpServers: {} }))
  return path
}

describe('a start that fails', () => {
  it('releases the lock and the port, logs and prints the reason and exits 2 when the runtime file cannot be written', async () => {
    const stateDir = await tempDir('ferry-state-')
    // The rename onto daemon.json fails: it is a directory. Everything before it has succeeded.
    await mkdir(join(stateDir, 'daemon.json'))
    const settings = await settingsFile()
    // A free port may be taken by another process before the daemon binds it; that start is not
    // the one this test is about, so it takes another port.
    let port = 0
    let result: CliResult | undefined
    for (let attempt = 0; attempt < 5; attempt++) {
      port = await freePort()
      result = await runCli([
        'serve',
        ...['--state-dir', stateDir, '--config', settings, '--port', String(port)],
      ])
      if (!result.stderr.includes(`cannot listen on 127.0.0.1:${port}: listen EADDRINUSE`)) break
    }
    if (result === undefined) throw new Error('no start was tried')
    const reason = `cannot write the runtime file ${join(stateDir, 'daemon.json')}: EISDIR`
    expect(result.code, result.stderr).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringContaining(`ferry: ${reason}`)])
    const log = await readFile(join(stateDir, 'daemon.log'), 'utf8')
    expect(log).toMatch(
      /"kind":"daemon\.start_failed","error":"cannot write the runtime file .*EISDIR/,
    )
    // The process has exited (runCli returned), and took nothing with it that outlives it.
    const left = await readdir(stateDir)
    expect(left).not.toContain('daemon.lock')
    expect(left.filter((name) => name.endsWith('.tmp'))).toEqual([])
    // The port is free again on both loopback families.
    await closeServer(await listenOn(port, '127.0.0.1'))
    const twin = await listenOn(port, '::1').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRNOTAVAIL' || error.code === 'EAFNOSUPPORT') return undefined
      throw error
    })
    if (twin !== undefined) await closeServer(twin)

    // A client does not take the directory for a runtime file either.
    const again = await runCli(['status', '--state-dir', stateDir])
    expect(again.code).toBe(2)
    expect(again.stderr).toMatch(/refusing the runtime file .*not a regular file/)
  })

  it('has `ferry start` report the reason the daemon gave, in one line, with exit 2', async () => {
    const stateDir = await tempDir('ferry-state-')
    const port = await freePort()
    const blocker = await listenOn(port, '127.0.0.1')
    try {
      const result = await runCli([
        'start',
        '--state-dir',
        stateDir,
        '--config',
        await settingsFile(),
        '--port',
        String(port),
      ])
      expect(result.code).toBe(2)
      expect(result.stdout).toBe('')
      expect(result.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(
          new RegExp(
            `^ferry: the daemon exited \\(code 2\\) while starting: cannot listen on 127\\.0\\.0\\.1:${port}: .*EADDRINUSE.* \\(see .*daemon\\.out and .*daemon\\.log\\)$`,
          ),
        ),
      ])
      expect(await readdir(stateDir)).not.toContain('daemon.lock')
      const log = await readFile(join(stateDir, 'daemon.log'), 'utf8')
      expect(log).toContain('daemon.start_failed')
    } finally {
      await closeServer(blocker)
    }
  })
})
