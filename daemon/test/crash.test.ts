import { readFileSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { afterEach, describe, expect, it } from 'vitest'
import type { LogsResponse, TranscriptEvent } from '../src/protocol/index.js'
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
import { startInProcess } from './in-process.js'

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
  return 'callId' in event ? (event.callId ?? undefined) : undefined
}

describe('server crashes and shutdown', () => {
  it('fails the pending call within 1 s naming the server and exit code, reconnects, and leaves other servers alone', async () => {
    // The servers' processes crash and exit; the daemon's own process is not what is tested.
    const daemon = await startInProcess(
      {
        mcpServers: {
          fragile: fixture(['--era', 'legacy']),
          steady: fixture(['--era', 'legacy']),
        },
      },
      { fixturesInMemory: false },
    )
    await Promise.all([
      daemon.waitForStatus('fragile', 'ready'),
      daemon.waitForStatus('steady', 'ready'),
    ])

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
    // With the last line the server wrote, as a failed start gives it.
    expect(body.error.message).toMatch(
      /^server "fragile" exited with code 7 during the call to crash; last stderr line: crash: exiting with code 7 at \d+$/,
    )
    // Timed from the server's exit, which it stamps on stderr, to the daemon's own record of the
    // failure: neither this process's scheduling nor the server's own timer counts.
    const requested = await daemon.waitForEvent(
      (event) => event.type === 'call.requested' && event.tool === 'mcp_fragile_crash',
    )
    const failed = await daemon.waitForEvent(
      (event) => event.type === 'call.failed' && event.callId === callIdOf(requested),
    )
    const exitedAt = await waitFor(async () => {
      const logs = (await (await daemon.api('/servers/fragile/logs')).json()) as LogsResponse
      const stamp = logs.entries
        .map((entry) => ('text' in entry ? /exiting with code 7 at (\d+)/.exec(entry.text) : null))
        .find((match) => match !== null)
      return stamp === undefined ? undefined : Number(stamp?.[1])
    }, 10_000)
    expect(Date.parse(failed.time) - exitedAt).toBeLessThan(1000)

    const fragile = (await daemon.servers()).find((s) => s.name === 'fragile')
    expect(['failed', 'connecting', 'ready']).toContain(fragile?.status)
    const back = await daemon.waitForStatus('fragile', 'ready', 10_000)
    expect(back.restartCount).toBe(1)
    expect(await slowOnSteady).toMatchObject({ code: 0, stdout: 'done\n' })
    expect((await daemon.cli(['call', 'mcp_fragile_echo', '{"text":"revived"}'])).stdout).toBe(
      'revived\n',
    )
  })

  it('leaves no server or grandchild (setsid or not) behind on shutdown, even when the server ignores SIGTERM', async () => {
    const dir = await tempDir()
    const daemon = await startDaemon({
      mcpServers: {
        parent: fixture([
          '--spawn-log',
          `${dir}/spawns`,
          '--grandchild-pidfile',
          `${dir}/grandchildren`,
          '--setsid-grandchild-pidfile',
          `${dir}/strays`,
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
    await Promise.all([
      daemon.waitForStatus('parent', 'ready'),
      daemon.waitForStatus('stubborn', 'ready'),
    ])
    const pids = [
      ...(await pidsIn(`${dir}/spawns`)),
      ...(await pidsIn(`${dir}/stubborn`)),
      ...(await pidsIn(`${dir}/grandchildren`)),
      ...(await pidsIn(`${dir}/strays`)),
    ]
    expect(pids).toHaveLength(5)
    for (const pid of pids) expect(isAlive(pid)).toBe(true)

    const stopping = Date.now()
    await daemon.stop()
    expect(daemon.process.exitCode).toBe(0)
    expect(Date.now() - stopping).toBeLessThan(9000)
    for (const pid of pids) expect(isAlive(pid), `pid ${pid}`).toBe(false)
  })

  it.runIf(process.platform === 'linux')(
    'takes the whole process group, and a grandchild that left it with setsid, down when the daemon itself is killed with SIGKILL',
    async () => {
      const dir = await tempDir()
      const daemon = await startDaemon({
        mcpServers: {
          orphan: fixture([
            ...['--spawn-log', `${dir}/spawns`, '--grandchild-pidfile', `${dir}/grand`],
            ...['--setsid-grandchild-pidfile', `${dir}/stray`],
          ]),
        },
      })
      await daemon.waitForStatus('orphan', 'ready')
      const pids = [
        ...(await pidsIn(`${dir}/spawns`)),
        ...(await pidsIn(`${dir}/grand`)),
        ...(await pidsIn(`${dir}/stray`)),
      ]
      expect(pids).toHaveLength(3)
      // Nothing stands between the daemon and its server.
      const stat = readFileSync(`/proc/${pids[0]}/stat`, 'utf8')
      expect(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])).toBe(daemon.process.pid)
      daemon.process.kill('SIGKILL')
      await waitFor(() => pids.every((pid) => !isAlive(pid)), 5000, 'the orphaned group to exit')
    },
  )

  it.runIf(process.platform === 'linux')(
    'ends a grandchild that left the process group with setsid when a reload stops its server',
    async () => {
      const dir = await tempDir()
      const settings = (extra: string[]) => ({
        mcpServers: {
          leaver: fixture([
            ...['--spawn-log', `${dir}/spawns`, '--setsid-grandchild-pidfile', `${dir}/stray`],
            ...extra,
          ]),
        },
      })
      // The reload ends the server's processes; the daemon's own process is not what is tested.
      const daemon = await startInProcess(settings([]))
      await daemon.waitForStatus('leaver', 'ready')
      const [server, stray] = [
        ...(await pidsIn(`${dir}/spawns`)),
        ...(await pidsIn(`${dir}/stray`)),
      ]
      if (server === undefined || stray === undefined) throw new Error('no pids recorded')
      // Its own session and process group: signalling the server's group cannot reach it.
      const raw = readFileSync(`/proc/${stray}/stat`, 'utf8')
      const stat = raw.slice(raw.lastIndexOf(')') + 2)
      expect(Number(stat.split(' ')[2])).toBe(stray)

      // A changed command line is a new fingerprint: the reload stops the old server.
      await daemon.writeSettings(settings(['--tool-name', 'renamed']))
      const reload = await daemon.cli(['reload'])
      expect(reload.code).toBe(0)
      await daemon.waitForStatus('leaver', 'ready')
      await waitFor(() => !isAlive(server), 10_000, 'the old server to exit')
      await waitFor(() => !isAlive(stray), 10_000, 'the setsid grandchild to exit')
    },
  )

  it('says the command was not found when a server command does not exist', async () => {
    const daemon = await startInProcess({
      mcpServers: { missing: { command: 'ferry-no-such-command-uvx', args: ['server'] } },
    })
    const server = await daemon.waitForStatus('missing', 'failed')
    expect(server.error).toBe(
      'command not found: "ferry-no-such-command-uvx" (spawn ferry-no-such-command-uvx ENOENT); check "command" for "missing" in settings or your PATH',
    )
  })

  it('says the command is not executable when it lacks the execute bit', async () => {
    const dir = await tempDir()
    await writeFile(`${dir}/server.sh`, '#!/bin/sh\nexit 0\n', { mode: 0o644 })
    const daemon = await startInProcess({ mcpServers: { plain: { command: `${dir}/server.sh` } } })
    const server = await daemon.waitForStatus('plain', 'failed')
    expect(server.error).toBe(
      `command not executable: "${dir}/server.sh" (spawn ${dir}/server.sh EACCES); make it executable (chmod +x) or check "command" for "plain" in settings`,
    )
  })

  it('backs off a server that keeps crashing right after each reconnect', async () => {
    const daemon = await startInProcess({ mcpServers: { flaky: fixture(['--exit-after', '300']) } })
    // Its status changes, in order: each crash (`failed`) and the retry after it (`connecting`).
    const statuses = async () =>
      (await daemon.events()).flatMap((event) =>
        event.type === 'server.status' && event.server === 'flaky'
          ? [{ status: event.status, at: Date.parse(event.time) }]
          : [],
      )
    // Two retries, each after the server was ready and then died 300 ms later.
    const seen = await waitFor(
      async () => {
        const all = await statuses()
        return all.filter((s) => s.status === 'connecting').length >= 3 ? all : undefined
      },
      30_000,
      'two retries',
    )
    const waits = seen.flatMap((entry, i) =>
      entry.status === 'failed' && seen[i + 1]?.status === 'connecting'
        ? [(seen[i + 1]?.at ?? 0) - entry.at]
        : [],
    )
    // Without growth every wait would be 500 ms. Timers never fire early, so a loaded machine
    // only makes the waits longer; a millisecond is allowed for the time stamps' rounding.
    expect(waits.length).toBeGreaterThanOrEqual(2)
    expect(waits[0]).toBeGreaterThanOrEqual(500 - 1)
    expect(waits[1]).toBeGreaterThanOrEqual(1000 - 1)
    const retries = (
      await readJsonLines<{ kind: string; server?: string; delayMs?: number }>(
        `${daemon.stateDir}/daemon.log`,
      )
    ).filter((line) => line.kind === 'server.retry' && line.server === 'flaky')
    expect(retries.slice(0, 2).map((line) => line.delayMs)).toEqual([500, 1000])
  })

  it('reconnects a failed server on `ferry reconnect` once its fault is fixed', async () => {
    const server = await brokenUntilFixed()
    const daemon = await startInProcess({ mcpServers: { later: { command: server.command } } })
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
    const daemon = await startInProcess({
      mcpServers: { broken: fixture(['--exit-at-start', '3']) },
    })
    const server = await daemon.waitForStatus('broken', 'failed')
    expect(server.error).toContain('exited with code 3')
    const logs = await daemon.cli(['logs', 'broken'])
    expect(logs.stdout).toContain('exiting at start with code 3')
    expect(await readJsonLines(`${daemon.stateDir}/daemon.log`)).toContainEqual(
      expect.objectContaining({ kind: 'server.status', server: 'broken', status: 'failed' }),
    )
  })
})
