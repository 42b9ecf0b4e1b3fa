import { createHash } from 'node:crypto'
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { WorkspaceEntry } from '../protocol/workspace.js'
import { rawFingerprint } from './fingerprint.js'
import { loadSettings } from './load-settings.js'
import type { LoadOptions } from './load-options.js'
import type { ServerEntry } from './types.js'

const dirs: string[] = []
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

const SECRET = 'daemon-secret-value'

async function sandbox(): Promise<LoadOptions & { workspaceFile: string; outside: string }> {
  const root = await mkdtemp(join(tmpdir(), 'ferry-describe-'))
  dirs.push(root)
  const cwd = join(root, 'project')
  await mkdir(join(cwd, '.ferry'), { recursive: true })
  return {
    cwd,
    homeDir: join(root, 'home'),
    env: { SECRET, PATH: '/usr/bin:/bin' },
    workspaceFile: join(cwd, '.ferry', 'settings.json'),
    outside: root,
  }
}

async function write(file: string, content: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  await writeFile(file, content)
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

function described(entry: ServerEntry | undefined): WorkspaceEntry {
  if (entry?.state !== 'awaiting_approval') throw new Error(`not waiting: ${JSON.stringify(entry)}`)
  return entry.description
}

describe('a waiting workspace entry, described', () => {
  it('shows command, args, URL and the names of env variables and headers, never their values', async () => {
    const options = await sandbox()
    await write(
      options.workspaceFile,
      JSON.stringify({
        mcpServers: {
          local: {
            command: 'node',
            args: ['--flag', '${SECRET}'],
            env: { LEAK: '${SECRET}', PLAIN: 'literal-env-value' },
          },
          remote: {
            url: 'https://user:hunter2@example.test/mcp?key=query-secret&v=2#frag-secret',
            headers: { Authorization: 'Bearer header-secret' },
          },
        },
      }),
    )
    const settings = await loadSettings(options)
    expect(described(settings.servers[0])).toMatchObject({
      name: 'local',
      file: options.workspaceFile,
      overrides: null,
      transport: 'stdio',
      command: 'node',
      args: ['--flag', '${SECRET}'],
      url: null,
      env: ['LEAK', 'PLAIN'],
      variables: ['SECRET'],
      files: [],
      lapsed: null,
    })
    expect(described(settings.servers[1])).toMatchObject({
      transport: 'streamable-http',
      command: null,
      url: 'https://***@example.test/mcp?key=***&v=***#***',
      headers: ['Authorization'],
    })
    const text = JSON.stringify(settings)
    for (const value of [SECRET, 'literal-env-value', 'hunter2', 'query-secret', 'header-secret']) {
      expect(text).not.toContain(value)
    }
  })

  it('binds the content of the workspace files it names, following links, and of none outside', async () => {
    const options = await sandbox()
    const { cwd } = options
    await write(join(cwd, 'server.js'), 'version 1')
    await write(join(cwd, 'conf', 'app.json'), '{}')
    await write(join(cwd, 'bin', 'tool'), '#!/bin/sh\n')
    await chmod(join(cwd, 'bin', 'tool'), 0o755)
    await write(join(cwd, '.env'), 'A=1')
    await write(join(options.outside, 'outside.js'), 'not in the workspace')
    await symlink(join(options.outside, 'outside.js'), join(cwd, 'escape.js'))
    await symlink(join(cwd, 'server.js'), join(cwd, 'alias.js'))
    await mkdir(join(cwd, 'a-directory'))
    const entry = {
      command: 'tool',
      args: ['server.js', '--config=conf/app.json', 'escape.js', 'alias.js', 'a-directory'],
      env: { PATH: '${workspaceFolder}/bin:$PATH' },
      envFile: '../.env',
    }
    await write(options.workspaceFile, JSON.stringify({ mcpServers: { repo: entry } }))
    const first = described((await loadSettings(options)).servers[0])
    expect(first.files).toEqual([
      { path: join(cwd, 'bin', 'tool'), sha256: sha256('#!/bin/sh\n'), unreadable: null },
      { path: join(cwd, 'server.js'), sha256: sha256('version 1'), unreadable: null },
      { path: join(cwd, 'conf', 'app.json'), sha256: sha256('{}'), unreadable: null },
      { path: join(cwd, '.env'), sha256: sha256('A=1'), unreadable: null },
    ])

    const approvals = { repo: { digest: first.digest, files: first.files } }
    expect((await loadSettings({ ...options, approvals })).servers[0]?.state).toBe('enabled')
    await write(join(cwd, 'server.js'), 'version 2')
    const changed = described((await loadSettings({ ...options, approvals })).servers[0])
    expect(changed.digest).not.toBe(first.digest)
    expect(changed.lapsed).toBe(`${join(cwd, 'server.js')} changed since you approved it`)
  })

  it('lets an approval recorded before files were bound hold only where the entry runs none', async () => {
    const options = await sandbox()
    const plain = { command: 'npx', args: ['some-server'] }
    const script = { command: 'node', args: ['server.js'] }
    await write(join(options.cwd, 'server.js'), 'x')
    await write(options.workspaceFile, JSON.stringify({ mcpServers: { plain, script } }))
    const approvals = {
      plain: { legacy: rawFingerprint(plain) },
      script: { legacy: rawFingerprint(script) },
    }
    const settings = await loadSettings({ ...options, approvals })
    expect(settings.servers[0]?.state).toBe('enabled')
    expect(described(settings.servers[1]).lapsed).toBe(
      `it was approved before approvals covered the workspace files it runs (${join(options.cwd, 'server.js')})`,
    )
  })
})
