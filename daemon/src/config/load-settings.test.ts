import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ErrorCode, FerryError } from '../errors.js'
import { DEFAULT_GATEWAY } from './defaults.js'
import { loadSettings } from './load-settings.js'
import type { LoadOptions } from './load-options.js'
import type { Settings } from './types.js'

const dirs: string[] = []
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

/** A fresh home and project directory; the user file lives under `home/.config/ferry`. */
async function sandbox(): Promise<LoadOptions & { userFile: string; workspaceFile: string }> {
  const root = await mkdtemp(join(tmpdir(), 'ferry-load-'))
  dirs.push(root)
  const homeDir = join(root, 'home')
  const cwd = join(root, 'project')
  await mkdir(cwd, { recursive: true })
  return {
    cwd,
    homeDir,
    env: {},
    userFile: join(homeDir, '.config', 'ferry', 'settings.json'),
    workspaceFile: join(cwd, '.ferry', 'settings.json'),
  }
}

async function write(file: string, content: unknown): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content))
}

/** Loads once, then again with every waiting workspace entry approved as it is written. */
async function loadApproved(options: LoadOptions): Promise<Settings> {
  const first = await loadSettings(options)
  const approvals = Object.fromEntries(
    first.servers.flatMap((s) =>
      s.state === 'awaiting_approval'
        ? [[s.name, { digest: s.description.digest, files: s.description.files }]]
        : [],
    ),
  )
  return loadSettings({ ...options, approvals })
}

async function failure(promise: Promise<unknown>): Promise<FerryError> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  if (!(error instanceof FerryError)) throw new Error(`expected a FerryError, got ${String(error)}`)
  return error
}

describe('loadSettings', () => {
  it('configures the bundled demo server when no settings file exists', async () => {
    const options = await sandbox()
    const settings = await loadSettings(options)
    expect(settings.usingDemo).toBe(true)
    expect(settings.files).toEqual([])
    expect(settings.servers).toHaveLength(1)
    const demo = settings.servers[0]
    expect(demo?.state).toBe('enabled')
    if (demo?.state !== 'enabled' || demo.config.transport !== 'stdio') throw new Error('no demo')
    expect(demo.name).toBe('demo')
    expect(demo.config.command).toBe(process.execPath)
    expect(demo.config.args).toHaveLength(1)
    expect(demo.config.args[0]).toMatch(/[/\\]daemon[/\\]dist[/\\]demo[/\\]demo-server\.js$/)
  })

  it('treats an existing file with empty mcpServers as no servers, not the demo', async () => {
    const options = await sandbox()
    await write(options.userFile, { mcpServers: {} })
    const settings = await loadSettings(options)
    expect(settings).toEqual({
      files: [options.userFile],
      servers: [],
      warnings: [],
      usingDemo: false,
      workspaceFile: options.workspaceFile,
      filesWithoutServers: [],
      gateway: { ...DEFAULT_GATEWAY },
    })
  })

  it('reads the user file from XDG_CONFIG_HOME when it is set', async () => {
    const options = await sandbox()
    const xdg = join(options.homeDir, 'xdg')
    await write(join(xdg, 'ferry', 'settings.json'), { mcpServers: { a: { command: 'a' } } })
    const settings = await loadSettings({ ...options, env: { XDG_CONFIG_HOME: xdg } })
    expect(settings.files).toEqual([join(xdg, 'ferry', 'settings.json')])
  })

  it('lets workspace entries replace user ones, while the allow and exclude lists only tighten', async () => {
    const options = await sandbox()
    await write(options.userFile, {
      mcpServers: {
        shared: { command: 'user-cmd', args: ['u'], trust: true },
        userOnly: { command: 'u' },
        blocked: { command: 'b' },
      },
      mcp: { excluded: ['userOnly'] },
    })
    await write(options.workspaceFile, {
      mcpServers: { shared: { url: 'https://ws.example/sse' }, wsOnly: { command: 'w' } },
      mcp: { excluded: ['blocked'] },
    })
    const settings = await loadApproved(options)
    expect(settings.files).toEqual([options.userFile, options.workspaceFile])
    expect(settings.servers.map((s) => [s.name, s.state])).toEqual([
      ['shared', 'enabled'],
      ['userOnly', 'disabled'],
      ['blocked', 'disabled'],
      ['wsOnly', 'enabled'],
    ])
    const shared = settings.servers[0]
    if (shared?.state !== 'enabled') throw new Error('shared not enabled')
    expect(shared.config).toMatchObject({
      transport: 'streamable-http',
      sseFallback: true,
      trust: false,
    })
  })

  it('ignores trust: true in workspace settings, with a warning', async () => {
    const options = await sandbox()
    await write(options.userFile, { mcpServers: { mine: { command: 'm', trust: true } } })
    await write(options.workspaceFile, { mcpServers: { theirs: { command: 't', trust: true } } })
    const settings = await loadApproved(options)
    const [mine, theirs] = settings.servers
    if (mine?.state !== 'enabled' || theirs?.state !== 'enabled') throw new Error('not enabled')
    expect(mine.config.trust).toBe(true)
    expect(theirs.config.trust).toBe(false)
    expect(settings.warnings).toContain(
      'mcpServers.theirs.trust: ignored in workspace settings; trust a server in your user settings',
    )
  })

  it('never lets a workspace allow list re-admit a server the user list leaves out', async () => {
    const options = await sandbox()
    await write(options.userFile, { mcpServers: {}, mcp: { allowed: ['safe-*'] } })
    await write(options.workspaceFile, {
      mcpServers: { 'safe-one': { command: 's' }, sneaky: { command: 'x' } },
      mcp: { allowed: ['*'] },
    })
    const settings = await loadApproved(options)
    expect(settings.servers.map((s) => [s.name, s.state])).toEqual([
      ['safe-one', 'enabled'],
      ['sneaky', 'disabled'],
    ])
  })

  it('resolves a relative cwd against the directory of the file that defined the server', async () => {
    const options = await sandbox()
    await write(options.userFile, { mcpServers: { a: { command: 'a', cwd: 'tools' } } })
    const settings = await loadSettings(options)
    const server = settings.servers[0]
    if (server?.state !== 'enabled' || server.config.transport !== 'stdio') throw new Error('a')
    expect(server.config.cwd).toBe(join(dirname(options.userFile), 'tools'))
  })

  it('uses only the explicit file when one is given, from the option or FERRY_CONFIG', async () => {
    const options = await sandbox()
    const explicit = join(options.cwd, 'custom.json')
    await write(options.userFile, { mcpServers: { user: { command: 'u' } } })
    await write(explicit, { mcpServers: { only: { command: 'o' } } })
    const viaOption = await loadSettings({ ...options, configFile: 'custom.json' })
    const viaEnv = await loadSettings({ ...options, env: { FERRY_CONFIG: explicit } })
    for (const settings of [viaOption, viaEnv]) {
      expect(settings.files).toEqual([explicit])
      expect(settings.servers.map((s) => s.name)).toEqual(['only'])
    }
  })

  it('fails with ConfigInvalid naming an explicit file that does not exist', async () => {
    const options = await sandbox()
    const missing = join(options.cwd, 'nope.json')
    const error = await failure(loadSettings({ ...options, configFile: missing }))
    expect(error.code).toBe(ErrorCode.ConfigInvalid)
    expect(error.message).toBe(`settings file not found: ${missing}`)
  })

  it('reports a JSON syntax error with file, line and column', async () => {
    const options = await sandbox()
    await write(options.userFile, '{\n  "mcpServers": {\n    3: {}\n  }\n}\n')
    const error = await failure(loadSettings(options))
    expect(error.code).toBe(ErrorCode.ConfigParse)
    expect(error.message).toBe(`${options.userFile}:3:5: invalid JSON (expected a property name)`)
  })

  it('accepts comments and trailing commas', async () => {
    const options = await sandbox()
    await write(options.userFile, '{\n  // mine\n  "mcpServers": { "a": { "command": "a", }, },\n}')
    const settings = await loadSettings(options)
    expect(settings.servers.map((s) => s.state)).toEqual(['enabled'])
  })

  it('fails the whole file when mcpServers or the file itself is not an object', async () => {
    const options = await sandbox()
    await write(options.userFile, { mcpServers: ['a'] })
    const servers = await failure(loadSettings(options))
    expect(servers.code).toBe(ErrorCode.ConfigInvalid)
    expect(servers.message).toBe(`${options.userFile}: mcpServers: expected an object`)

    await write(options.userFile, '[1, 2]')
    const top = await failure(loadSettings(options))
    expect(top.code).toBe(ErrorCode.ConfigInvalid)
    expect(top.message).toBe(`${options.userFile}: expected a JSON object at the top level`)
  })

  it('disables servers outside mcp.allowed and matching mcp.excluded, with excluded winning', async () => {
    const options = await sandbox()
    await write(options.userFile, {
      mcpServers: {
        'gh-main': { command: 'a' },
        'gh-test': { command: 'a' },
        'gh.x': { command: 'a' },
        slack: { command: 'a' },
        off: { command: 'a', disabled: true },
      },
      mcp: { allowed: ['gh-*', 'gh.?', 'off'], excluded: ['*-test'] },
    })
    const settings = await loadSettings(options)
    expect(settings.servers).toEqual([
      expect.objectContaining({ name: 'gh-main', state: 'enabled' }),
      {
        name: 'gh-test',
        state: 'disabled',
        transport: 'stdio',
        reason: 'excluded by mcp.excluded pattern "*-test"',
      },
      expect.objectContaining({ name: 'gh.x', state: 'enabled' }),
      { name: 'slack', state: 'disabled', transport: 'stdio', reason: 'not in mcp.allowed' },
      { name: 'off', state: 'disabled', transport: 'stdio', reason: 'disabled in settings' },
    ])
  })
})

describe('the gateway block', () => {
  it('takes the user file over the defaults, key by key', async () => {
    const options = await sandbox()
    await write(options.userFile, { mcpServers: {}, gateway: { phase: 2, maxSessions: 5 } })
    const settings = await loadSettings(options)
    expect(settings.gateway).toEqual({ ...DEFAULT_GATEWAY, phase: 2, maxSessions: 5 })
    expect(settings.warnings).toEqual([])
  })

  it('ignores a workspace file that sets it, with a warning, so a repository cannot change it', async () => {
    const options = await sandbox()
    await write(options.userFile, { mcpServers: {}, gateway: { phase: 2 } })
    await write(options.workspaceFile, { mcpServers: {}, gateway: { enabled: false, phase: 3 } })
    const settings = await loadSettings(options)
    expect(settings.gateway).toEqual({ ...DEFAULT_GATEWAY, phase: 2 })
    expect(settings.warnings).toContain(
      'gateway: ignored in workspace settings; set the gateway in your user settings',
    )
  })

  it('refuses a malformed block as a whole-file error naming the key', async () => {
    const options = await sandbox()
    await write(options.userFile, { mcpServers: {}, gateway: { phase: 4 } })
    const error = await failure(loadSettings(options))
    expect(error.code).toBe(ErrorCode.ConfigInvalid)
    expect(error.message).toContain('gateway.phase')
  })

  it('warns about unknown keys and counts a file with only the block as settings, not as no servers', async () => {
    const options = await sandbox()
    await write(options.userFile, { gateway: { enabled: false, colour: 'blue' } })
    const settings = await loadSettings(options)
    expect(settings.gateway.enabled).toBe(false)
    expect(settings.usingDemo).toBe(false)
    expect(settings.filesWithoutServers).toEqual([])
    expect(settings.warnings.some((w) => w.includes('gateway.colour'))).toBe(true)
  })
})
