import { readFile } from 'node:fs/promises'
import { afterEach, describe, expect, it } from 'vitest'
import type { TranscriptEvent } from '../src/protocol/index.js'
import {
  brokenUntilFixed,
  cleanup,
  fixture,
  isAlive,
  readJsonLines,
  startDaemon,
  tempDir,
  waitFor,
} from './harness.js'

afterEach(cleanup)

async function pidsIn(file: string): Promise<number[]> {
  const text = await readFile(file, 'utf8').catch(() => '')
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) =>
      line.startsWith('{') ? (JSON.parse(line) as { pid: number }).pid : Number(line),
    )
}

function callIdOf(event: TranscriptEvent): string | undefined {
  return 'callId' in event ? event.callId : undefined
}

describe('server crashes and shutdown', () => {
  it('fails the pending call within 1 s naming the server and exit code, reconnects, and leaves other servers alone', async () => {
    const daemon = await startDaemon({
      mcpServers: { fragile: fixture(['--era', 'legacy']), steady: fixture(['--era', 'legacy']) },
    })
    await daemon.waitForStatus('fragile', 'ready')
    await daemon.waitForStatus('steady', 'ready')

    const slowOnSteady = daemon.cli(['call', 'mcp_steady_slow', '{"steps":10,"delayMs":100}'])
    const response = await daemon.api('/call', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'mcp_fragile_crash', arguments: { code: 7 } }),
    })
    const body = (await response.json()) as { error: { code: string; message: string } }
    expect(response.status).toBe(502)
    expect(body.error.code).toBe('server_crashed')
    expect(body.error.message).toContain('"fragile"')
    expect(body.error.message).toContain('exited with code 7')
    // The crash tool exits 50 ms after the call arrives. Timed by the daemon's own events, from
    // the call entering the transcript to its failure, so this process's scheduling does not count.
    const requested = await daemon.waitForEvent(
      (event) => event.type === 'call.requested' && event.tool === 'mcp_fragile_crash',
    )
    const failed = await daemon.waitForEvent(
      (event) => event.type === 'call.failed' && event.callId === callIdOf(requested),
    )
    expect(Date.parse(failed.time) - Date.parse(requested.time)).toBeLessThan(1000)

    const fragile = (await daemon.servers()).find((s) => s.name === 'fragile')
    expect(['failed', 'connecting', 'ready']).toContain(fragile?.status)
    const back = await daemon.waitForStatus('fragile', 'ready', 10_000)
    expect(back.restartCount).toBe(1)
    expect(await slowOnSteady).toMatchObject({ code: 0, stdout: 'done\n' })
    expect((await daemon.cli(['call', 'mcp_fragile_echo', '{"text":"revived"}'])).stdout).toBe(
      'revived\n',
    )
  })

  it('leaves no server, grandchild or launcher process behind on shutdown, even when the server ignores SIGTERM', async () => {
    const dir = await tempDir()
    const daemon = await startDaemon({
      mcpServers: {
        parent: fixture([
          '--spawn-log',
          `${dir}/spawns`,
          '--grandchild-pidfile',
          `${dir}/grandchildren`,
        ]),
        stubborn: fixture([
          '--spawn-log',
          `${dir}/stubborn`,
          '--ignore-sigterm',
          '--linger',
          '--grandchild-pidfile',
          `${dir}/grandchildren`,
        ]),
      },
    })
    await daemon.waitForStatus('parent', 'ready')
    await daemon.waitForStatus('stubborn', 'ready')
    const pids = [
      ...(await pidsIn(`${dir}/spawns`)),
      ...(await pidsIn(`${dir}/stubborn`)),
      ...(await pidsIn(`${dir}/grandchildren`)),
    ]
    expect(pids).toHaveLength(4)
    for (const pid of pids) expect(isAlive(pid)).toBe(true)

    const stopping = Date.now()
    await daemon.stop()
    expect(daemon.process.exitCode).toBe(0)
    expect(Date.now() - stopping).toBeLessThan(9000)
    for (const pid of pids) expect(isAlive(pid), `pid ${pid}`).toBe(false)
  })

  it('takes the whole process group down when the daemon itself is killed with SIGKILL', async () => {
    const dir = await tempDir()
    const daemon = await startDaemon({
      mcpServers: {
        orphan: fixture(['--spawn-log', `${dir}/spawns`, '--grandchild-pidfile', `${dir}/grand`]),
      },
    })
    await daemon.waitForStatus('orphan', 'ready')
    const pids = [...(await pidsIn(`${dir}/spawns`)), ...(await pidsIn(`${dir}/grand`))]
    expect(pids).toHaveLength(2)
    daemon.process.kill('SIGKILL')
    await waitFor(() => pids.every((pid) => !isAlive(pid)), 5000, 'the orphaned group to exit')
  })

  it('backs off a server that keeps crashing right after each reconnect', async () => {
    const dir = await tempDir()
    const daemon = await startDaemon({
      mcpServers: { flaky: fixture(['--exit-after', '300', '--spawn-log', `${dir}/spawns`]) },
    })
    // Its first `ready` can be short, so it is read from the transcript rather than polled.
    await daemon.waitForEvent(
      (event) =>
        event.type === 'server.status' && event.server === 'flaky' && event.status === 'ready',
    )
    const started = Date.now()
    await waitFor(() => Date.now() - started > 7000, 8000, 'seven seconds')
    // Without backoff growth it would restart about every 1.1 s (500 ms wait, start, 300 ms up):
    // six times in seven seconds. With waits of 0.5, 1, 2 and 4 s, three restarts fit.
    const restarts = (await pidsIn(`${dir}/spawns`)).length - 1
    expect(restarts).toBeGreaterThanOrEqual(2)
    expect(restarts).toBeLessThanOrEqual(4)
  })

  it('reconnects a failed server on `ferry reconnect` once its fault is fixed', async () => {
    const server = await brokenUntilFixed()
    const daemon = await startDaemon({ mcpServers: { later: { command: server.command } } })
    expect((await daemon.waitForStatus('later', 'failed')).error).toContain('exited with code 4')
    const stillBroken = await daemon.cli(['reconnect', 'later'])
    expect(stillBroken.code).toBe(2)
    expect(stillBroken.stdout).toContain('later: failed')

    await server.fix()
    const fixed = await daemon.cli(['reconnect', 'later'])
    expect(fixed).toMatchObject({ code: 0, stdout: 'later: ready\n' })
    expect((await daemon.cli(['call', 'mcp_later_echo', '{"text":"works now"}'])).stdout).toBe(
      'works now\n',
    )
  })

  it('reports a server that exits at start as failed with its exit code and keeps its stderr', async () => {
    const daemon = await startDaemon({ mcpServers: { broken: fixture(['--exit-at-start', '3']) } })
    const server = await daemon.waitForStatus('broken', 'failed')
    expect(server.error).toContain('exited with code 3')
    const logs = await daemon.cli(['logs', 'broken'])
    expect(logs.stdout).toContain('exiting at start with code 3')
    expect(await readJsonLines(`${daemon.stateDir}/daemon.log`)).toContainEqual(
      expect.objectContaining({ kind: 'server.status', server: 'broken', status: 'failed' }),
    )
  })
})
