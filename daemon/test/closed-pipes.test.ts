// A reader that goes away (`ferry start | head -1`) ends the CLI quietly: no stack trace, exit 0,
// and whatever the command did (a daemon started, say) stays done.

import { execFile, spawn } from 'node:child_process'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { readRuntimeFile } from '../src/daemon/runtime-file.js'
import { adoptDetached, cleanupWithDetached, ferryBin, fixture, tempDir } from './harness.js'
import { startInProcess } from './in-process.js'
import { writeFile, readFile } from 'node:fs/promises'

afterEach(cleanupWithDetached)

describe('a closed stdout', () => {
  it('ends `ferry start` quietly when the reader has gone before it writes, and the daemon runs', async () => {
    const stateDir = await tempDir('ferry-state-')
    const config = join(await tempDir('ferry-config-'), 'settings.json')
    await writeFile(config, JSON.stringify({ mcpServers: {} }))
    const child = spawn(
      process.execPath,
      [ferryBin, 'start', '--state-dir', stateDir, '--config', config, '--port', '0'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    // The reading end closes at once: every line `start` writes meets a closed pipe.
    child.stdout.destroy()
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
    const info = await readRuntimeFile(stateDir)
    if (info !== undefined) adoptDetached(info.pid)
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(info?.stoppedAt).toBeNull()
  })

  it('ends `ferry tools | head -1` quietly once head has its line', async () => {
    // Far more than a pipe holds, so the CLI is still writing when head exits.
    const daemon = await startInProcess({ mcpServers: { x: fixture(['--extra-tools', '3000']) } })
    await daemon.waitForStatus('x', 'ready')
    const errFile = join(await tempDir(), 'stderr')
    const script = `"$0" "$1" --state-dir "$2" tools 2>"$3" | head -1; echo "ferry exited \${PIPESTATUS[0]}"`
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(
        'bash',
        ['-c', script, process.execPath, ferryBin, daemon.stateDir, errFile],
        { timeout: 30_000 },
        (error, out) => (error === null ? resolve(out) : reject(error)),
      ),
    )
    const lines = stdout.trim().split('\n')
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/^NAME\s+SERVER/)
    expect(lines[1]).toBe('ferry exited 0')
    expect(await readFile(errFile, 'utf8')).toBe('')
  })
})
