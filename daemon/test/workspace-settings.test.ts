// A repository's `.ferry/settings.json`: its servers wait for the person's approval before they
// run or see a single expanded variable, and an approval holds only for the entry as approved.

import { existsSync } from 'node:fs'
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type {
  StatusResponse,
  WorkspaceApproveResponse,
  WorkspaceResponse,
} from '../src/protocol/index.js'
import {
  adoptDetached,
  cleanupWithDetached,
  daemonPaths,
  runCli,
  stdioServerPath,
  tempDir,
  type Daemon,
} from './harness.js'
import { startInProcess } from './in-process.js'

afterEach(cleanupWithDetached)

const SECRET = 'daemon-secret-5f1c'

/** A fixture server that appends its argv to `marker` as it starts, and shows `$SECRET` if given. */
function markingServer(marker: string, extra: string[] = []): Record<string, unknown> {
  return {
    command: process.execPath,
    args: [stdioServerPath, '--spawn-log', marker, '--stderr', 'secret=${SECRET}', ...extra],
    env: { LEAK: '${SECRET}' },
  }
}

function workspaceFile(daemon: Daemon): string {
  return join(daemon.workspace, '.ferry', 'settings.json')
}

/** A reload has applied the settings and settled every connection attempt it started. */
async function settled(daemon: Daemon): Promise<void> {
  expect((await daemon.cli(['reload'])).code).toBe(0)
}

describe('settings from a repository', () => {
  it('runs nothing and expands nothing before approval, then starts the entry once approved', async () => {
    const dir = await tempDir()
    const marker = join(dir, 'spawned.jsonl')
    const daemon = await startInProcess(null, {
      env: { SECRET },
      workspaceSettings: { mcpServers: { repo: markingServer(marker) } },
    })
    const waiting = await daemon.waitForStatus('repo', 'awaiting_approval')
    expect(waiting.error).toBe(
      `defined in ${workspaceFile(daemon)} (this workspace); run \`ferry workspace approve repo\` to start it`,
    )
    await settled(daemon)
    expect((await daemon.servers())[0]?.status).toBe('awaiting_approval')
    expect(existsSync(marker)).toBe(false)
    const status = await (await daemon.api('/status')).text()
    const servers = await (await daemon.api('/servers')).text()
    const log = await readFile(join(daemon.stateDir, 'daemon.log'), 'utf8')
    for (const text of [status, servers, log]) expect(text).not.toContain(SECRET)
    expect(JSON.parse(status)).toMatchObject({ awaitingApproval: ['repo'] })

    const listed = await daemon.cli(['workspace'])
    expect(listed.code).toBe(0)
    expect(listed.stdout).toContain(`repo waits for your approval\n`)
    expect(listed.stdout).not.toContain(SECRET)
    const unknown = await daemon.cli(['workspace', 'approve', 'nope'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toBe(
      'ferry: no server named "nope" in the settings; run `ferry workspace` to list what waits for approval\n',
    )

    const approved = await daemon.cli(['workspace', 'approve', '--yes'])
    expect(approved.code).toBe(0)
    expect(approved.stdout).toContain(`\nApproved from ${workspaceFile(daemon)}: repo\n`)
    await daemon.waitForStatus('repo', 'ready')
    expect(existsSync(marker)).toBe(true)
    const env = await daemon.cli(['call', 'mcp_repo_env', '{}', '--json'])
    expect(env.code).toBe(0)
    expect(env.stdout).toContain(`\\"LEAK\\":\\"${SECRET}\\"`)
    const again = await daemon.cli(['workspace', 'approve', 'repo'])
    expect(again.code).toBe(2)
    expect(again.stderr).toBe('ferry: server "repo" does not wait for approval (it is enabled)\n')

    const approvals = join(daemon.stateDir, 'workspace-approvals.json')
    expect((await stat(approvals)).mode & 0o777).toBe(0o600)
    expect(Object.keys(JSON.parse(await readFile(approvals, 'utf8')) as object)).toEqual([
      daemon.workspace,
    ])
  })

  it('makes a changed entry wait again, stopping what ran under the old one', async () => {
    const dir = await tempDir()
    const first = join(dir, 'first.jsonl')
    const second = join(dir, 'second.jsonl')
    const daemon = await startInProcess(null, {
      env: { SECRET },
      workspaceSettings: { mcpServers: { repo: markingServer(first) } },
    })
    await daemon.waitForStatus('repo', 'awaiting_approval')
    expect((await daemon.cli(['workspace', 'approve', 'repo', '--yes'])).code).toBe(0)
    await daemon.waitForStatus('repo', 'ready')

    await writeFile(
      workspaceFile(daemon),
      JSON.stringify({ mcpServers: { repo: markingServer(second) } }),
    )
    const reload = await daemon.cli(['reload'])
    expect(reload).toMatchObject({ code: 0, stdout: 'Stopped: repo\n' })
    expect((await daemon.servers())[0]?.status).toBe('awaiting_approval')
    expect(existsSync(second)).toBe(false)
  })

  it('makes a workspace entry that replaces a user-allowed server by name wait too', async () => {
    const dir = await tempDir()
    const mine = join(dir, 'mine.jsonl')
    const theirs = join(dir, 'theirs.jsonl')
    const daemon = await startInProcess(null, {
      env: { SECRET },
      userSettings: {
        mcpServers: { tools: markingServer(mine) },
        mcp: { allowed: ['tools'] },
      },
      workspaceSettings: { mcpServers: { tools: markingServer(theirs) } },
    })
    const waiting = await daemon.waitForStatus('tools', 'awaiting_approval')
    expect(waiting.error).toContain(`replacing your entry in ${daemon.userSettingsPath}`)
    await settled(daemon)
    expect(existsSync(mine)).toBe(false)
    expect(existsSync(theirs)).toBe(false)

    const shown = (await (await daemon.api('/workspace')).json()) as WorkspaceResponse
    const response = await daemon.api('/workspace/approve', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        entries: shown.waiting.map(({ name, digest }) => ({ name, digest })),
      }),
    })
    expect(response.status).toBe(200)
    const body = (await response.json()) as WorkspaceApproveResponse
    expect(body).toMatchObject({ approved: ['tools'], reload: { reconnected: ['tools'] } })
    await daemon.waitForStatus('tools', 'ready')
    expect(existsSync(theirs)).toBe(true)
  })

  it('keeps an approval across a restart', async () => {
    const dir = await tempDir()
    const marker = join(dir, 'spawned.jsonl')
    const stateDir = await tempDir('ferry-state-')
    const settings = { mcpServers: { repo: markingServer(marker) } }
    const first = await startInProcess(null, {
      env: { SECRET },
      stateDir,
      workspaceSettings: settings,
    })
    await first.waitForStatus('repo', 'awaiting_approval')
    expect((await first.cli(['workspace', 'approve', '--yes'])).code).toBe(0)
    await first.waitForStatus('repo', 'ready')
    await first.stop()

    const second = await startInProcess(null, {
      env: { SECRET },
      stateDir,
      workspaceSettings: settings,
    })
    await second.waitForStatus('repo', 'ready')
  })
})

describe('ferry start and the settings it found', () => {
  async function startIn(options: { user?: unknown; workspace?: unknown }) {
    const stateDir = await tempDir('ferry-state-')
    const home = await tempDir('ferry-home-')
    const paths = daemonPaths(stateDir, home)
    const write = async (file: string, value: unknown) => {
      await mkdir(join(file, '..'), { recursive: true })
      await writeFile(file, JSON.stringify(value))
    }
    if (options.user !== undefined) await write(paths.userSettings, options.user)
    if (options.workspace !== undefined) await write(paths.workspaceSettings, options.workspace)
    await mkdir(paths.workspace, { recursive: true })
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), FERRY_CONFIG: '', SECRET }
    const started = await runCli(['--state-dir', stateDir, 'start', '--port', '0'], {
      cwd: paths.workspace,
      env,
    })
    const runtime = JSON.parse(
      await readFile(join(stateDir, 'daemon.json'), 'utf8').catch(() => '{}'),
    ) as { pid?: number }
    if (runtime.pid !== undefined) adoptDetached(runtime.pid)
    return { started, paths, stateDir }
  }

  it('prints one line on stderr when workspace entries wait for approval', async () => {
    const dir = await tempDir()
    const { started, paths } = await startIn({
      workspace: {
        mcpServers: {
          one: markingServer(join(dir, 'one.jsonl')),
          two: markingServer(join(dir, 'two.jsonl')),
        },
      },
    })
    expect(started.code, started.stderr).toBe(0)
    expect(started.stderr).toBe(
      `ferry: 2 servers in ${paths.workspaceSettings} wait for your approval (one, two); review and run \`ferry workspace approve\`\n`,
    )
  })

  it('says on stderr which settings file gave no server', async () => {
    const { started, paths, stateDir } = await startIn({
      user: { mcp_servers: { typo: { command: 'x' } } },
    })
    expect(started.code, started.stderr).toBe(0)
    expect(started.stderr).toBe(
      `ferry: no server could be read from ${paths.userSettings}: it has no "mcpServers" (or VS Code "servers") object\n`,
    )
    const status = await runCli(['--state-dir', stateDir, 'status', '--json'])
    expect((JSON.parse(status.stdout) as StatusResponse).filesWithoutServers).toEqual([
      {
        file: paths.userSettings,
        reason: 'it has no "mcpServers" (or VS Code "servers") object',
      },
    ])
  })
})
