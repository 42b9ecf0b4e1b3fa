// The `ferry` command line against real daemons: output shapes, human summaries and exit codes
// (0 ok, 1 a tool returned isError, 2 usage, connection or daemon errors).

import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { createServer, type AddressInfo, type Socket } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { RuntimeInfo } from '../src/daemon/runtime-file.js'
import type { ServerInfo, StatusResponse, ToolInfo } from '../src/protocol/index.js'
import {
  adoptDetached,
  cleanupWithDetached,
  countLines,
  fixture,
  isAlive,
  readJsonLines,
  runCli,
  startDaemon,
  startScript,
  tempDir,
  waitFor,
  type CliResult,
} from './harness.js'
import { startInProcess } from './in-process.js'

afterEach(cleanupWithDetached)

const SERVER_KEYS = [
  'approval',
  'era',
  'error',
  'hiddenTools',
  'name',
  'negotiation',
  'protocolVersion',
  'restartCount',
  'roots',
  'status',
  'toolCount',
  'transport',
  'undeclared',
]
const TOOL_KEYS = [
  'annotations',
  'appNotShown',
  'description',
  'inputSchema',
  'name',
  'notCallable',
  'server',
  'taskSupport',
  'title',
  'tool',
  'uiResourceUri',
]

const RICH_RESULT = {
  content: [
    { type: 'text', text: 'rich text' },
    {
      type: 'image',
      data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==',
      mimeType: 'image/png',
    },
    {
      type: 'audio',
      data: 'UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAACAgICAgICAgA==',
      mimeType: 'audio/wav',
    },
    { type: 'resource_link', uri: 'fixture://readme', name: 'readme', mimeType: 'text/plain' },
    {
      type: 'resource',
      resource: { uri: 'fixture://embedded', mimeType: 'text/plain', text: 'embedded text' },
    },
  ],
  structuredContent: { ok: true },
  isError: false,
}

function oneLine(text: string): string {
  const lines = text.trim().split('\n')
  expect(lines).toHaveLength(1)
  return lines[0] as string
}

describe('ferry servers', () => {
  it('lists ready, invalid and disabled servers as JSON rows and summarises them for humans', async () => {
    const daemon = await startInProcess({
      mcpServers: {
        ok: fixture([]),
        bad: { command: process.execPath, args: [1] },
        off: fixture([], { disabled: true }),
      },
    })
    await daemon.waitForStatus('ok', 'ready')

    const listed = await daemon.cli(['servers', '--json'])
    expect(listed.code).toBe(0)
    const rows = JSON.parse(listed.stdout) as ServerInfo[]
    for (const row of rows) expect(Object.keys(row).sort()).toEqual(SERVER_KEYS)
    expect(rows.map((row) => row.name)).toEqual(['ok', 'bad', 'off'])
    expect(rows[0]).toEqual({
      name: 'ok',
      transport: 'stdio',
      status: 'ready',
      era: 'legacy',
      protocolVersion: '2025-11-25',
      negotiation: 'legacy',
      toolCount: 6,
      error: null,
      restartCount: 0,
      approval: null,
      roots: null,
      hiddenTools: [],
      // No workspace is known to this daemon.
      undeclared: [expect.stringMatching(/^roots \(/)],
    })
    expect(rows[1]).toMatchObject({
      name: 'bad',
      transport: 'stdio',
      status: 'invalid',
      era: null,
      protocolVersion: null,
      toolCount: 0,
      error: 'mcpServers.bad.args[0]: expected string',
    })
    expect(rows[2]).toMatchObject({
      name: 'off',
      status: 'disabled',
      toolCount: 0,
      error: 'disabled in settings',
    })

    const human = await daemon.cli(['servers'])
    expect(human.code).toBe(0)
    expect(human.stdout).toMatch(/^ok\s+ready\s+stdio\s+2025-11-25 \(legacy\)\s+6/m)
    expect(human.stdout).toMatch(/^bad\s+invalid\s+.*mcpServers\.bad\.args\[0\]: expected string/m)
    expect(human.stdout).toMatch(/^off\s+disabled/m)
    expect(human.stdout.trim().split('\n').at(-1)).toBe('1/3 ready')
  })
})

describe('ferry tools', () => {
  it('lists tool rows as JSON, narrows to one server, and exits 2 for an unknown server', async () => {
    const daemon = await startInProcess({
      mcpServers: { a: fixture([]), b: fixture(['--tool-name', 'shout']) },
    })
    await Promise.all([daemon.waitForStatus('a', 'ready'), daemon.waitForStatus('b', 'ready')])

    const all = await daemon.cli(['tools', '--json'])
    expect(all.code).toBe(0)
    const rows = JSON.parse(all.stdout) as ToolInfo[]
    expect(rows).toHaveLength(13)
    for (const row of rows) expect(Object.keys(row).sort()).toEqual(TOOL_KEYS)
    expect(rows.find((row) => row.name === 'mcp_a_echo')).toEqual({
      name: 'mcp_a_echo',
      server: 'a',
      tool: 'echo',
      title: null,
      description: 'Returns its text argument unchanged.',
      inputSchema: expect.objectContaining({
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text'],
      }),
      annotations: { readOnlyHint: true },
      uiResourceUri: null,
      appNotShown: null,
      taskSupport: null,
      notCallable: null,
    })

    const onlyB = await daemon.cli(['tools', '--server', 'b', '--json'])
    expect(onlyB.code).toBe(0)
    const bRows = JSON.parse(onlyB.stdout) as ToolInfo[]
    expect(new Set(bRows.map((row) => row.server))).toEqual(new Set(['b']))
    expect(bRows.map((row) => row.tool)).toContain('shout')

    const human = await daemon.cli(['tools', '--server', 'a'])
    expect(human.stdout).toMatch(/^mcp_a_echo\s+a\s+read-only\s+Returns its text argument/m)
    expect(human.stdout).not.toContain('mcp_b_')

    const unknown = await daemon.cli(['tools', '--server', 'nope'])
    expect(unknown.code).toBe(2)
    expect(unknown.stdout).toBe('')
    expect(oneLine(unknown.stderr)).toContain('no server named "nope"')
  })

  it('says why tools are missing where Ferry can tell: filtered in settings, not declared to the server, or a server not ready', async () => {
    const daemon = await startInProcess({
      mcpServers: {
        f: fixture([], { excludeTools: ['crash', 'env'], roots: false }),
        m: fixture([], { versionNegotiation: 'auto', includeTools: ['echo', 'slow'] }),
        bad: { command: process.execPath, args: [1] },
      },
    })
    await Promise.all([daemon.waitForStatus('f', 'ready'), daemon.waitForStatus('m', 'ready')])
    const servers = JSON.parse((await daemon.cli(['servers', '--json'])).stdout) as ServerInfo[]
    expect(servers.find((server) => server.name === 'f')).toMatchObject({
      hiddenTools: [
        { tool: 'crash', reason: 'left out by excludeTools in its settings' },
        { tool: 'env', reason: 'left out by excludeTools in its settings' },
      ],
      undeclared: [
        'roots (no workspace is known and its settings name none, or say "roots": false)',
      ],
    })
    expect(servers.find((server) => server.name === 'm')).toMatchObject({
      era: 'modern',
      hiddenTools: ['crash', 'env', 'rich', 'fail'].map((tool) => ({
        tool,
        reason: 'not in includeTools in its settings',
      })),
      undeclared: [
        expect.stringMatching(/^roots \(/),
        expect.stringContaining('the Tasks extension (io.modelcontextprotocol/tasks)'),
      ],
    })

    const human = await daemon.cli(['tools'])
    expect(human.code).toBe(0)
    const [listed, missing] = human.stdout.split('Not listed above:\n')
    expect(listed).toMatch(/^mcp_f_echo\s/m)
    expect(listed).not.toContain('mcp_f_crash')
    expect(missing?.trim().split('\n')).toEqual([
      expect.stringMatching(/^SERVER\s+TOOLS\s+WHY$/),
      expect.stringMatching(/^f\s+crash, env\s+left out by excludeTools in its settings$/),
      expect.stringMatching(
        /^f\s+\?\s+not declared to it, so tools that need it may be left out: roots \(no workspace is known and its settings name none, or say "roots": false\)$/,
      ),
      expect.stringMatching(/^m\s+crash, env, rich, fail\s+not in includeTools in its settings$/),
      expect.stringMatching(/^m\s+\?\s+not declared to it, .*: roots \(/),
      expect.stringMatching(/^m\s+\?\s+not declared to it, .*: the Tasks extension/),
      expect.stringMatching(
        /^bad\s+\*\s+server invalid: mcpServers\.bad\.args\[0\]: expected string$/,
      ),
    ])
    const onlyF = await daemon.cli(['tools', '--server', 'f'])
    expect(onlyF.stdout).not.toMatch(/^(m|bad)\s/m)
  })
})

describe('ferry call', () => {
  it('prints the text of a result and exits 0', async () => {
    const daemon = await startInProcess({ mcpServers: { x: fixture([]) } })
    await daemon.waitForStatus('x', 'ready')
    const call = await daemon.cli(['call', 'mcp_x_echo', '{"text":"hello ferry"}'])
    expect(call).toEqual({ code: 0, stdout: 'hello ferry\n', stderr: '' })
  })

  it('prints the CallToolResult exactly as the server returned it with --json', async () => {
    const daemon = await startInProcess({ mcpServers: { x: fixture([]) } })
    await daemon.waitForStatus('x', 'ready')
    const call = await daemon.cli(['call', 'mcp_x_rich', '{}', '--json'])
    expect(call.code).toBe(0)
    expect(JSON.parse(call.stdout)).toEqual(RICH_RESULT)

    const text = await daemon.cli(['call', 'mcp_x_rich'])
    expect(text.code).toBe(0)
    expect(text.stdout).toContain('rich text')
    expect(text.stdout).toContain('[image image/png')
    expect(text.stdout).toContain('[resource link fixture://readme "readme"]')
    expect(text.stdout).toContain('embedded text')
  })

  it('exits 1 with a one-line reason on stderr when the tool returns isError', async () => {
    const daemon = await startInProcess({ mcpServers: { x: fixture([]) } })
    await daemon.waitForStatus('x', 'ready')
    const call = await daemon.cli(['call', 'mcp_x_fail', '{}'])
    expect(call.code).toBe(1)
    expect(call.stdout).toBe('tool failed on purpose\n')
    expect(oneLine(call.stderr)).toContain('mcp_x_fail')
    const json = await daemon.cli(['call', 'mcp_x_fail', '--json'])
    expect(json.code).toBe(1)
    expect(JSON.parse(json.stdout)).toMatchObject({ isError: true })
  })

  it('exits 2 with one line for an unknown tool, invalid JSON and non-object arguments', async () => {
    const daemon = await startInProcess({ mcpServers: { x: fixture([]) } })
    await daemon.waitForStatus('x', 'ready')
    const cases: Array<[string[], RegExp]> = [
      [['call', 'mcp_x_nope', '{}'], /no tool named "mcp_x_nope"/],
      [['call', 'mcp_x_echo', '{text:'], /not valid JSON/],
      [['call', 'mcp_x_echo', '["hi"]'], /must be a JSON object/],
      [['call', 'mcp_x_echo', '"hi"'], /must be a JSON object/],
      [['call', 'mcp_x_echo', 'null'], /must be a JSON object/],
      // Checked against the tool's input schema before anything reaches the server.
      [['call', 'mcp_x_echo'], /must have required property 'text'; see its inputSchema/],
      [['call', 'mcp_x_echo', '{"text":3}'], /arguments\/text must be string/],
    ]
    for (const [args, message] of cases) {
      const result = await daemon.cli(args)
      expect(result.code, args.join(' ')).toBe(2)
      expect(result.stdout).toBe('')
      expect(oneLine(result.stderr)).toMatch(message)
    }
  })

  it('suggests the qualified names a typo or a bare tool name most likely meant', async () => {
    const daemon = await startInProcess({ mcpServers: { a: fixture([]), b: fixture([]) } })
    await Promise.all([daemon.waitForStatus('a', 'ready'), daemon.waitForStatus('b', 'ready')])
    const typo = await daemon.cli(['call', 'mcp_a_ecoh', '{"text":"x"}'])
    expect(typo.code).toBe(2)
    expect(oneLine(typo.stderr)).toBe(
      'ferry: no tool named "mcp_a_ecoh" (did you mean mcp_a_echo?); run `ferry tools` to see the qualified names',
    )
    const bare = await daemon.cli(['call', 'echo', '{"text":"x"}'])
    expect(oneLine(bare.stderr)).toContain('(did you mean mcp_a_echo or mcp_b_echo?)')
    const far = await daemon.cli(['call', 'mcp_a_nothing_like_it'])
    expect(oneLine(far.stderr)).not.toContain('did you mean')
  })

  it('says a server is still connecting, not that its tool does not exist, for a call made before it listed tools', async () => {
    // Accepts connections and never answers: the server stays `connecting`.
    const sockets: Socket[] = []
    const silent = createServer((socket) => void sockets.push(socket))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const { port } = silent.address() as AddressInfo
    try {
      const daemon = await startInProcess({
        mcpServers: { slow: { url: `http://127.0.0.1:${port}/mcp` } },
      })
      await daemon.waitForStatus('slow', 'connecting')
      const early = await daemon.cli(['call', 'mcp_slow_echo', '{"text":"x"}'])
      expect(early.code).toBe(2)
      expect(oneLine(early.stderr)).toBe(
        'ferry: server "slow" is still connecting and has listed no tools yet; call again once `ferry servers` shows it ready',
      )
    } finally {
      silent.close()
      for (const socket of sockets) socket.destroy()
    }
  })

  it('says when no browser could be started for `ferry open` and prints the address, and says it opened one only when it did', async () => {
    const daemon = await startInProcess({ mcpServers: {} })
    const address = `${daemon.info.url}#token=${daemon.info.token}`
    // `false` exits with an error, as xdg-open does with no browser; `true` hands the page on. A
    // PATH with nothing in it keeps this machine's own xdg-open out of it.
    const nowhere = await tempDir('ferry-no-browser-')
    const none = await daemon.cli(['open'], { env: { BROWSER: '/bin/false', PATH: nowhere } })
    expect(none.code).toBe(0)
    expect(none.stdout.trim()).toBe(address)
    expect(none.stderr).toContain('No browser could be started here')
    const opened = await daemon.cli(['open'], { env: { BROWSER: '/bin/true', PATH: nowhere } })
    expect(opened.stdout.trim()).toBe('Opened the WebShell in your browser.')
  })

  it('exits 2 with a timed-out message when --timeout passes without progress', async () => {
    const daemon = await startInProcess({ mcpServers: { x: fixture([]) } })
    await daemon.waitForStatus('x', 'ready')
    const call = await daemon.cli([
      'call',
      'mcp_x_slow',
      '{"steps":2,"delayMs":500}',
      '--timeout',
      '1',
    ])
    expect(call.code).toBe(2)
    expect(oneLine(call.stderr)).toMatch(/timed out/)
    // The daemon and the server survive the timeout.
    expect((await daemon.cli(['call', 'mcp_x_echo', '{"text":"still"}'])).stdout).toBe('still\n')
  })

  it('exits 2 saying Ferry is not running when the state directory has no daemon', async () => {
    const stateDir = await tempDir('ferry-state-')
    const call = await runCli(['--state-dir', stateDir, 'call', 'mcp_x_echo', '{"text":"hi"}'])
    expect(call.code).toBe(2)
    expect(oneLine(call.stderr)).toMatch(/not running/)
  })

  it('exits 2 on usage errors: missing tool, unknown command, unknown option, bad --timeout', async () => {
    const stateDir = await tempDir('ferry-state-')
    const cases: Array<[string[], string]> = [
      [['call'], "error: missing required argument 'tool'"],
      [['frobnicate'], "error: unknown command 'frobnicate'"],
      [['call', 'mcp_x_echo', '--frobnicate'], "error: unknown option '--frobnicate'"],
      [['status', '--frobnicate'], "error: unknown option '--frobnicate'"],
      [
        ['call', 'mcp_x_echo', '--timeout', '0'],
        "error: option '--timeout <ms>' argument '0' is invalid. --timeout must be an integer ≥ 1",
      ],
    ]
    const codes: Record<string, number> = {}
    const results = await Promise.all(
      cases.map(([args]) => runCli(['--state-dir', stateDir, ...args])),
    )
    cases.forEach(([args, message], i) => {
      const result = results[i] as CliResult
      expect(oneLine(result.stderr), args.join(' ')).toBe(message)
      codes[args.join(' ')] = result.code
    })
    expect(codes).toEqual(Object.fromEntries(cases.map(([args]) => [args.join(' '), 2])))
  })
})

describe('ferry status', () => {
  it('reports pid, version, url and server counts as text and JSON while running', async () => {
    const daemon = await startInProcess({
      mcpServers: { x: fixture([]), off: fixture([], { disabled: true }) },
    })
    await daemon.waitForStatus('x', 'ready')

    const json = await daemon.cli(['status', '--json'])
    expect(json.code).toBe(0)
    const body = JSON.parse(json.stdout) as StatusResponse
    expect(body).toMatchObject({
      pid: daemon.info.pid,
      version: daemon.info.version,
      url: daemon.info.url,
      stateDir: daemon.stateDir,
      settingsFiles: [daemon.configPath],
      usingDemo: false,
      servers: { total: 2, ready: 1 },
    })
    expect(JSON.stringify(body)).not.toContain(daemon.info.token)

    const human = await daemon.cli(['status'])
    expect(human.code).toBe(0)
    expect(human.stdout).toContain(`running (pid ${daemon.info.pid}) at ${daemon.info.url}`)
    expect(human.stdout).toContain('Servers: 1/2 ready')
  })

  it('exits 2 when nothing runs, including after the daemon was killed', async () => {
    const [fresh, freshJson, daemon] = await Promise.all([
      tempDir('ferry-state-').then((dir) => runCli(['--state-dir', dir, 'status'])),
      tempDir('ferry-state-').then((dir) => runCli(['--state-dir', dir, 'status', '--json'])),
      startDaemon({ mcpServers: {} }),
    ])
    expect(fresh.code).toBe(2)
    expect(oneLine(fresh.stderr)).toMatch(/not running/)
    expect(freshJson.code).toBe(2)

    daemon.process.kill('SIGKILL')
    await waitFor(() => !isAlive(daemon.info.pid), 5000, 'the daemon to die')
    const stale = await daemon.cli(['status'])
    expect(stale.code).toBe(2)
    expect(oneLine(stale.stderr)).toMatch(/not running/)
  })
})

describe('ferry start / stop', () => {
  it('starts in the background once the daemon answers, refuses a second start, and stops cleanly', async () => {
    const stateDir = await tempDir('ferry-state-')
    const configPath = join(await tempDir('ferry-config-'), 'settings.json')
    await writeFile(configPath, JSON.stringify({ mcpServers: { x: fixture([]) } }))
    const base = ['--state-dir', stateDir, '--config', configPath]
    const runtimePath = join(stateDir, 'daemon.json')

    const started = await runCli([...base, 'start', '--port', '0'])
    const runtime = JSON.parse(await readFile(runtimePath, 'utf8').catch(() => '{}')) as RuntimeInfo
    if (runtime.pid !== undefined) adoptDetached(runtime.pid)
    expect(started.code).toBe(0)
    const url = /(http:\/\/127\.0\.0\.1:(\d+)\/)#token=([A-Za-z0-9_-]+)/.exec(started.stdout)
    expect(url, started.stdout).not.toBeNull()
    expect(url?.[1]).toBe(runtime.url)
    expect(Number(url?.[2])).toBe(runtime.port)
    expect(url?.[3]).toBe(runtime.token)
    expect(started.stdout).toContain(`pid ${runtime.pid}`)
    // `start` returned, so the daemon must already answer: no waiting here.
    const answer = await fetch(new URL('api/status', runtime.url), {
      headers: { authorization: `Bearer ${runtime.token}` },
    })
    expect(answer.status).toBe(200)

    const again = await runCli([...base, 'start', '--port', '0'])
    expect(again.code).toBe(0)
    expect(again.stdout).toMatch(/already running/)
    expect(again.stdout).toContain(`pid ${runtime.pid}`)
    // `pnpm start` on this checkout, built before the tests run: no build, straight to `ferry start`.
    const viaScript = await runCli(base, { script: startScript })
    expect(viaScript.code).toBe(0)
    expect(viaScript.stdout).not.toContain('Building')
    expect(viaScript.stdout).toMatch(/already running/)

    const status = await runCli([...base, 'status'])
    expect(status.code).toBe(0)
    expect(status.stdout).toContain(`pid ${runtime.pid}`)

    const stopped = await runCli([...base, 'stop'])
    expect(stopped.code).toBe(0)
    expect(stopped.stdout).toContain(`pid ${runtime.pid}`)
    expect(isAlive(runtime.pid)).toBe(false)
    // The record stays for the next start to take over token and port, marked stopped.
    const kept = JSON.parse(await readFile(runtimePath, 'utf8')) as RuntimeInfo
    expect(kept).toMatchObject({ pid: runtime.pid, token: runtime.token })
    expect(kept.stoppedAt).toEqual(expect.any(String))
    expect(existsSync(join(stateDir, 'daemon.lock'))).toBe(false)

    const after = await runCli([...base, 'status'])
    expect(after.code).toBe(2)
    expect(oneLine(after.stderr)).toMatch(/not running/)
    expect(after.stdout + after.stderr).not.toContain(runtime.token)
    const stopAgain = await runCli([...base, 'stop'])
    expect(stopAgain).toMatchObject({ code: 0, stdout: 'Ferry is not running.\n' })
  })
})

describe('ferry reload', () => {
  it('reconnects a changed server, keeps an unchanged one on the same process, and adds a new one', async () => {
    const dir = await tempDir()
    const keepLog = join(dir, 'keep.spawns')
    const changeLog = join(dir, 'change.spawns')
    // The servers run as processes (their pids are the proof); the daemon need not.
    const daemon = await startInProcess({
      mcpServers: {
        keep: fixture(['--spawn-log', keepLog]),
        change: fixture(['--spawn-log', changeLog]),
        retire: fixture([]),
      },
    })
    await Promise.all([
      daemon.waitForStatus('keep', 'ready'),
      daemon.waitForStatus('change', 'ready'),
      daemon.waitForStatus('retire', 'ready'),
    ])
    const [oldChange] = await readJsonLines<{ pid: number }>(changeLog)

    await daemon.writeSettings({
      mcpServers: {
        keep: fixture(['--spawn-log', keepLog]),
        change: fixture(['--spawn-log', changeLog, '--tool-name', 'v2']),
        retire: fixture([], { disabled: true }),
        added: fixture([]),
      },
    })
    const reload = await daemon.cli(['reload'])
    expect(reload.code).toBe(0)
    expect(reload.stdout).toContain('Added: added')
    expect(reload.stdout).toContain('Reconnected: change')
    expect(reload.stdout).toContain('Unchanged: keep')
    expect(reload.stdout).toContain('Stopped: retire')

    const servers = await daemon.servers()
    expect(servers.map((s) => [s.name, s.status])).toEqual([
      ['keep', 'ready'],
      ['change', 'ready'],
      ['retire', 'disabled'],
      ['added', 'ready'],
    ])
    expect(await countLines(keepLog)).toBe(1)
    expect(await countLines(changeLog)).toBe(2)
    const [keepSpawn] = await readJsonLines<{ pid: number }>(keepLog)
    expect(isAlive(keepSpawn?.pid as number)).toBe(true)
    await waitFor(() => !isAlive(oldChange?.pid as number), 10_000, 'the old process to exit')
    const call = await daemon.cli(['call', 'mcp_change_v2', '{"text":"new tool"}'])
    expect(call.stdout).toBe('new tool\n')
  })

  it('reloads on SIGHUP', async () => {
    const daemon = await startDaemon({ mcpServers: { first: fixture([]) } })
    await daemon.waitForStatus('first', 'ready')
    await daemon.writeSettings({ mcpServers: { first: fixture([]), late: fixture([]) } })
    process.kill(daemon.info.pid, 'SIGHUP')
    await daemon.waitForStatus('late', 'ready')
    expect(isAlive(daemon.info.pid)).toBe(true)
    // Everyone attached hears about it: a notice in the workspace's session.
    const notice = await daemon.waitForEvent((event) => event.type === 'notice')
    expect(notice).toMatchObject({ message: 'settings reloaded: added late' })
    expect((await daemon.servers()).find((s) => s.name === 'first')?.restartCount).toBe(0)

    // A file that cannot be read changes nothing, and says where it is wrong: in every
    // transcript, in the status and in the daemon's log, until a reload reads it again.
    await writeFile(daemon.configPath, '{\n  "mcpServers": {}\n  "gateway": {}\n}\n')
    process.kill(daemon.info.pid, 'SIGHUP')
    const problem = {
      file: daemon.configPath,
      line: 3,
      column: 3,
      message: `${daemon.configPath}:3:3: invalid JSON (expected ',')`,
    }
    expect(await daemon.waitForEvent((event) => event.type === 'settings.failed')).toMatchObject({
      problem,
      client: null,
    })
    const status = async () =>
      ((await (await daemon.api('/status')).json()) as StatusResponse).settingsProblem
    expect(await status()).toEqual(problem)
    expect((await daemon.cli(['status'])).stdout).toContain(
      `\nSettings not applied: ${problem.message}. Ferry keeps the settings it read before; ` +
        'fix the file and run `ferry reload`.\n',
    )
    const logged = await readJsonLines(join(daemon.stateDir, 'daemon.log'))
    expect(logged.filter((entry) => entry.kind === 'settings.reload_failed')).toMatchObject([
      { error: problem.message, file: daemon.configPath, line: 3, column: 3 },
    ])
    expect((await daemon.servers()).map((s) => [s.name, s.status])).toEqual([
      ['first', 'ready'],
      ['late', 'ready'],
    ])

    await daemon.writeSettings({ mcpServers: { first: fixture([]), late: fixture([]) } })
    process.kill(daemon.info.pid, 'SIGHUP')
    await daemon.waitForEvent((event) => event.type === 'settings.recovered')
    expect(await status()).toBeNull()
  })
})

describe('ferry logs', () => {
  it("prints a server's stderr, and the stderr of a server that exited at start", async () => {
    // The servers run as processes (their stderr is the point); the daemon need not.
    const daemon = await startInProcess({
      mcpServers: {
        chatty: fixture(['--stderr', 'hello from stderr']),
        dead: fixture(['--exit-at-start', '3']),
      },
    })
    await daemon.waitForStatus('chatty', 'ready')
    const logs = await waitFor(async () => {
      const result = await daemon.cli(['logs', 'chatty'])
      return result.stdout.includes('hello from stderr') ? result : undefined
    })
    expect(logs.code).toBe(0)

    const dead = await daemon.waitForStatus('dead', 'failed')
    expect(dead.error).toMatch(/code 3/)
    const deadLogs = await daemon.cli(['logs', 'dead'])
    expect(deadLogs.code).toBe(0)
    expect(deadLogs.stdout).toContain('stdio-server: exiting at start with code 3')

    const unknown = await daemon.cli(['logs', 'nope'])
    expect(unknown.code).toBe(2)
    expect(oneLine(unknown.stderr)).toContain('no server named "nope"')
  })
})

describe('invalid settings', () => {
  it('makes `ferry serve` exit 2 naming file:line:column of the JSON error', async () => {
    const dir = await tempDir()
    const configPath = join(dir, 'bad.json')
    await writeFile(configPath, '{\n  "mcpServers": {\n    "a": { "command": "node" },,\n  }\n}\n')
    const stateDir = join(dir, 'state')
    const serve = await runCli([
      'serve',
      '--state-dir',
      stateDir,
      '--config',
      configPath,
      '--port',
      '0',
    ])
    expect(serve.code).toBe(2)
    expect(oneLine(serve.stderr)).toContain(`${configPath}:3:32: invalid JSON`)
    expect(existsSync(join(stateDir, 'daemon.json'))).toBe(false)
    expect(existsSync(join(stateDir, 'daemon.lock'))).toBe(false)
  })
})

describe('ferry service', () => {
  it.runIf(process.platform === 'linux')(
    'writes and removes a systemd user unit that runs `ferry serve`',
    async () => {
      const home = await tempDir('ferry-home-')
      const configHome = join(home, 'xdg')
      const stateDir = join(home, 'state')
      const env = { HOME: home, XDG_CONFIG_HOME: configHome }
      const unit = join(configHome, 'systemd', 'user', 'ferry.service')

      const install = await runCli(['--state-dir', stateDir, 'service', 'install'], { env })
      expect(install.code).toBe(0)
      expect(install.stdout).toContain(unit)
      const contents = await readFile(unit, 'utf8')
      const execStart = contents.split('\n').find((line) => line.startsWith('ExecStart='))
      expect(execStart).toContain('"serve"')
      expect(execStart).toContain(`"--state-dir" "${stateDir}"`)
      expect(contents).toContain('WantedBy=default.target')

      const uninstall = await runCli(['--state-dir', stateDir, 'service', 'uninstall'], { env })
      expect(uninstall.code).toBe(0)
      expect(existsSync(unit)).toBe(false)

      // Without XDG_CONFIG_HOME the unit goes under ~/.config.
      const fallback = join(home, '.config', 'systemd', 'user', 'ferry.service')
      const plain = { HOME: home, XDG_CONFIG_HOME: '' }
      expect(
        (await runCli(['--state-dir', stateDir, 'service', 'install'], { env: plain })).code,
      ).toBe(0)
      expect(existsSync(fallback)).toBe(true)
      await runCli(['--state-dir', stateDir, 'service', 'uninstall'], { env: plain })
      expect(existsSync(fallback)).toBe(false)
    },
  )
})
