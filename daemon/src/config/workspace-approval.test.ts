import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { APPROVALS_FILE, ApprovalStore } from './approval-store.js'
import { loadSettings } from './load-settings.js'
import type { LoadOptions } from './load-options.js'
import type { WorkspaceEntry } from '../protocol/workspace.js'
import type { ServerEntry } from './types.js'

const dirs: string[] = []
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

const SECRET = 'daemon-secret-value'

async function sandbox(): Promise<LoadOptions & { userFile: string; workspaceFile: string }> {
  const root = await mkdtemp(join(tmpdir(), 'ferry-approval-'))
  dirs.push(root)
  const cwd = join(root, 'project')
  await mkdir(cwd, { recursive: true })
  return {
    cwd,
    homeDir: join(root, 'home'),
    env: { SECRET },
    userFile: join(root, 'home', '.config', 'ferry', 'settings.json'),
    workspaceFile: join(cwd, '.ferry', 'settings.json'),
  }
}

async function write(file: string, content: unknown): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  await writeFile(file, JSON.stringify(content))
}

function waiting(
  entry: ServerEntry | undefined,
): Extract<ServerEntry, { state: 'awaiting_approval' }> {
  if (entry?.state !== 'awaiting_approval') throw new Error(`not waiting: ${JSON.stringify(entry)}`)
  return entry
}

describe('workspace entries and approval', () => {
  it('keeps a workspace entry waiting, unexpanded, with a message naming the file and the command', async () => {
    const options = await sandbox()
    await write(options.workspaceFile, {
      mcpServers: {
        repo: {
          command: 'sh',
          args: ['-c', 'echo ${SECRET} > /tmp/x', '${UNSET_TOO}'],
          env: { LEAK: '$SECRET' },
        },
      },
    })
    const settings = await loadSettings(options)
    const entry = waiting(settings.servers[0])
    expect(entry).toMatchObject({ name: 'repo', transport: 'stdio', file: options.workspaceFile })
    expect(entry.message).toBe(
      `defined in ${options.workspaceFile} (this workspace); run \`ferry workspace approve repo\` to start it`,
    )
    // Nothing was expanded: neither the secret nor the unset variable shows anywhere.
    expect(JSON.stringify(settings)).not.toContain(SECRET)
    expect(settings.warnings).toEqual([])
  })

  it('makes a workspace entry that replaces a user-allowed entry by name wait, unless it is identical', async () => {
    const options = await sandbox()
    await write(options.userFile, {
      mcpServers: { tools: { command: 'mine' }, same: { command: 's', args: ['1'] } },
      mcp: { allowed: ['tools', 'same'] },
    })
    await write(options.workspaceFile, {
      mcpServers: { tools: { command: 'theirs' }, same: { args: ['1'], command: 's' } },
    })
    const settings = await loadSettings(options)
    const tools = waiting(settings.servers[0])
    expect(tools.overrides).toBe(options.userFile)
    expect(tools.message).toContain(`replacing your entry in ${options.userFile}`)
    expect(settings.servers[1]).toMatchObject({ name: 'same', state: 'enabled' })
  })

  it('starts an approved entry, and waits again once the entry changes', async () => {
    const options = await sandbox()
    const entry = { command: 'node', args: ['server.js', '${SECRET}'] }
    await write(options.workspaceFile, { mcpServers: { repo: entry } })
    const { digest, files } = waiting((await loadSettings(options)).servers[0]).description
    const approvals = { repo: { digest, files } }
    const approved = await loadSettings({ ...options, approvals })
    expect(approved.servers[0]).toMatchObject({
      state: 'enabled',
      config: { args: ['server.js', SECRET] },
    })
    await write(options.workspaceFile, {
      mcpServers: { repo: { ...entry, args: ['other.js', '${SECRET}'] } },
    })
    const changed = waiting((await loadSettings({ ...options, approvals })).servers[0])
    expect(changed.description.digest).not.toBe(digest)
    expect(changed.description.lapsed).toBe('its entry changed since you approved it')
    expect(changed.message).toBe(
      `defined in ${options.workspaceFile} (this workspace); its entry changed since you approved it; run \`ferry workspace approve repo\` to start it`,
    )
    expect(JSON.stringify(changed)).not.toContain(SECRET)
  })

  it('leaves a disabled or excluded workspace entry off without asking', async () => {
    const options = await sandbox()
    await write(options.userFile, { mcpServers: {}, mcp: { excluded: ['blocked'] } })
    await write(options.workspaceFile, {
      mcpServers: { off: { command: 'o', disabled: true }, blocked: { command: 'b' } },
    })
    const settings = await loadSettings(options)
    expect(settings.servers.map((s) => [s.name, s.state])).toEqual([
      ['off', 'disabled'],
      ['blocked', 'disabled'],
    ])
  })

  it('ignores input answers from the workspace file, with a warning', async () => {
    const options = await sandbox()
    await write(options.userFile, {
      mcpServers: { mine: { command: 'm', env: { KEY: '${input:key}' } } },
    })
    await write(options.workspaceFile, { inputs: { key: 'from-repo' } })
    const settings = await loadSettings(options)
    expect(settings.servers[0]).toMatchObject({ state: 'invalid' })
    expect(settings.warnings).toContain(
      'inputs: ignored in workspace settings; answer inputs in your user settings',
    )
  })

  it('needs no approval for an explicit --config file', async () => {
    const options = await sandbox()
    const explicit = join(options.cwd, '.ferry', 'settings.json')
    await write(explicit, { mcpServers: { chosen: { command: 'c' } } })
    const settings = await loadSettings({ ...options, configFile: explicit })
    expect(settings.servers[0]).toMatchObject({ state: 'enabled' })
  })
})

const workspaceFile = { path: '/p/run.sh', sha256: 'ab'.repeat(32), unreadable: null }

/** An entry as the person was shown it, with `digest`. */
function shown(name: string, digest: string): WorkspaceEntry {
  return {
    name,
    file: '/p/.ferry/settings.json',
    overrides: null,
    transport: 'stdio',
    command: './run.sh',
    args: [],
    cwd: null,
    url: null,
    env: [],
    headers: [],
    envFile: null,
    variables: [],
    files: [workspaceFile],
    digest,
    lapsed: null,
  }
}

describe('ApprovalStore', () => {
  it('keeps approvals by workspace and name in a 0600 file, replacing it whole', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'ferry-approvals-'))
    dirs.push(stateDir)
    const file = join(stateDir, APPROVALS_FILE)
    // A record from before approvals bound files: kept as it was when others are written.
    await writeFile(file, JSON.stringify({ '/p': { old: 'f0' } }))
    const store = new ApprovalStore(stateDir)
    expect(await store.forWorkspace('/none')).toEqual({})
    await store.approve('/p', [shown('a', 'f1')])
    await store.approve('/p', [shown('b', 'f2')])
    await store.approve('/q', [shown('a', 'f3')])
    await store.approve('/p', [shown('a', 'f4')])
    const record = (digest: string) => ({ digest, files: [workspaceFile] })
    expect(await store.forWorkspace('/p')).toEqual({
      old: { legacy: 'f0' },
      a: record('f4'),
      b: record('f2'),
    })
    expect(await new ApprovalStore(stateDir).forWorkspace('/q')).toEqual({ a: record('f3') })
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      '/p': { old: 'f0', a: record('f4'), b: record('f2') },
      '/q': { a: record('f3') },
    })
  })

  it('approves nothing from a damaged file', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'ferry-approvals-'))
    dirs.push(stateDir)
    await writeFile(join(stateDir, APPROVALS_FILE), '{"/p": {"a": ')
    expect(await new ApprovalStore(stateDir).forWorkspace('/p')).toEqual({})
  })
})
