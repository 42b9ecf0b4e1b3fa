// A repository's server is approved as the person saw it: the description `ferry workspace` shows
// (command, arguments, redacted URL, names of variables, workspace files it runs) is what an
// approval binds, so an entry or a script changed after the person looked does not run.

import { existsSync } from 'node:fs'
import { chmod, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { WorkspaceEntry, WorkspaceResponse } from '../src/protocol/index.js'
import { cleanup, stdioServerPath, tempDir, waitFor } from './harness.js'
import { startInProcess, type InProcessDaemon } from './in-process.js'

afterEach(cleanup)

const SECRET = 'daemon-secret-7d2e'

/** A fixture server that appends its argv to `marker` as it starts; it is given `$SECRET`. */
function markingServer(marker: string): Record<string, unknown> {
  return {
    command: process.execPath,
    args: [stdioServerPath, '--spawn-log', marker],
    env: { LEAK: '${SECRET}', PLAIN: 'literal-value-3c1' },
  }
}

function workspaceFile(daemon: InProcessDaemon): string {
  return join(daemon.workspace, '.ferry', 'settings.json')
}

async function waiting(daemon: InProcessDaemon): Promise<WorkspaceEntry[]> {
  return ((await (await daemon.api('/workspace')).json()) as WorkspaceResponse).waiting
}

function approveBody(entries: { name: string; digest: string }[]): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ entries }),
  }
}

describe('approving a workspace entry as it was shown', () => {
  it('does not run an entry rewritten after the person looked, says it changed, and keeps it waiting', async () => {
    const dir = await tempDir()
    const looked = join(dir, 'looked-at.jsonl')
    const rewritten = join(dir, 'rewritten.jsonl')
    const daemon = await startInProcess(null, {
      env: { SECRET },
      workspaceSettings: { mcpServers: { repo: markingServer(looked) } },
    })
    await daemon.waitForStatus('repo', 'awaiting_approval')

    const listed = await daemon.cli(['workspace'])
    expect(listed.code).toBe(0)
    expect(listed.stdout).toContain(
      `  args: ${JSON.stringify([stdioServerPath, '--spawn-log', looked])}\n`,
    )
    const command = /^ {2}approve: (ferry workspace approve repo@([0-9a-f]{64}))$/m.exec(
      listed.stdout,
    )
    const shownDigest = command?.[2] ?? ''
    expect(command?.[1]).toBe(`ferry workspace approve repo@${shownDigest}`)

    // The repository rewrites its entry after the person looked, before they approve.
    await writeFile(
      workspaceFile(daemon),
      JSON.stringify({ mcpServers: { repo: markingServer(rewritten) } }),
    )
    const refused = await daemon.cli(['workspace', 'approve', `repo@${shownDigest}`])
    expect(refused).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'ferry: nothing was approved: "repo" changed since it was shown (the entry, or a workspace ' +
        'file it runs); it still waits: run `ferry workspace` to review again\n',
    })
    const api = await daemon.api(
      '/workspace/approve',
      approveBody([{ name: 'repo', digest: shownDigest }]),
    )
    expect(api.status).toBe(409)
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe('approval_changed')

    // The refusal applied the settings (and settled any start) before it answered: nothing ran.
    expect(existsSync(rewritten)).toBe(false)
    expect(existsSync(looked)).toBe(false)
    const [server] = await daemon.servers()
    expect(server).toMatchObject({ name: 'repo', status: 'awaiting_approval' })
    expect(server?.approval?.args).toEqual([stdioServerPath, '--spawn-log', rewritten])
    expect(server?.approval?.digest).not.toBe(shownDigest)

    // What is shown now can be approved, and only that starts.
    const approved = await daemon.cli(['workspace', 'approve', `repo@${server?.approval?.digest}`])
    expect(approved).toMatchObject({
      code: 0,
      stdout: `Approved from ${workspaceFile(daemon)}: repo\n`,
    })
    await daemon.waitForStatus('repo', 'ready')
    expect(existsSync(rewritten)).toBe(true)
    expect(existsSync(looked)).toBe(false)
  })

  it('makes an approved entry wait again once a workspace script it runs is edited, without running the edit', async () => {
    const dir = await tempDir()
    const marker = join(dir, 'versions.txt')
    const daemon = await startInProcess(null, {
      workspaceSettings: {
        mcpServers: { repo: { command: '${workspaceFolder}/run.sh', args: [] } },
      },
    })
    const script = join(daemon.workspace, 'run.sh')
    const writeScript = async (version: string) => {
      await writeFile(
        script,
        `#!/bin/sh\necho ${version} >> '${marker}'\nexec '${process.execPath}' '${stdioServerPath}' "$@"\n`,
      )
      await chmod(script, 0o755)
    }
    await writeScript('v1')
    const approved = await daemon.cli(['workspace', 'approve', 'repo', '--yes'])
    expect(approved.code, approved.stderr).toBe(0)
    expect(approved.stdout).toContain(`  runs workspace file ${JSON.stringify(script)}: sha256 `)
    await daemon.waitForStatus('repo', 'ready')
    expect(await readFile(marker, 'utf8')).toBe('v1\n')

    await writeScript('v2')
    // The server crashes; its automatic restart would run the edited script.
    const crashed = await daemon.cli(['call', 'mcp_repo_crash', '{"code":3}', '--yes'])
    expect(crashed.code).toBe(2)
    const notice = await daemon.waitForEvent(
      (event) => event.type === 'notice' && event.message.startsWith('server "repo" waits'),
    )
    expect(notice).toMatchObject({
      level: 'warning',
      message: `server "repo" waits for your approval again: ${script} changed since you approved it; review it with \`ferry workspace\``,
    })
    const [server] = await waitFor(async () => {
      const list = await daemon.servers()
      return list[0]?.approval?.lapsed === null ? undefined : list
    })
    expect(server).toMatchObject({ status: 'awaiting_approval' })
    expect(server?.error).toContain(`${script} changed since you approved it`)
    expect(await readFile(marker, 'utf8')).toBe('v1\n')

    const [edited] = await waiting(daemon)
    const again = await daemon.api(
      '/workspace/approve',
      approveBody([{ name: 'repo', digest: edited?.digest ?? '' }]),
    )
    expect(again.status).toBe(200)
    await daemon.waitForStatus('repo', 'ready')
    expect(await readFile(marker, 'utf8')).toBe('v1\nv2\n')
  })

  it('shows command, args, redacted URL and the names of env variables, never their values', async () => {
    const daemon = await startInProcess(null, {
      env: { SECRET },
      workspaceSettings: {
        mcpServers: {
          local: markingServer('/nonexistent/marker'),
          remote: {
            url: 'https://user:pw-5a1@example.test/mcp?key=q-secret-9&v=2',
            headers: { Authorization: 'Bearer h-secret-4' },
          },
        },
      },
    })
    await daemon.waitForStatus('remote', 'awaiting_approval')
    const [local, remote] = await waiting(daemon)
    const listed = await daemon.cli(['workspace'])
    expect(listed).toMatchObject({
      code: 0,
      stdout: [
        'local waits for your approval',
        `  defined in ${workspaceFile(daemon)} (this workspace)`,
        '  transport: stdio',
        `  command: ${JSON.stringify(process.execPath)}`,
        `  args: ${JSON.stringify([stdioServerPath, '--spawn-log', '/nonexistent/marker'])}`,
        '  env (values not shown): ["LEAK","PLAIN"]',
        `  expands from the daemon's environment: ["SECRET"]`,
        `  digest: ${local?.digest}`,
        `  approve: ferry workspace approve local@${local?.digest}`,
        '',
        'remote waits for your approval',
        `  defined in ${workspaceFile(daemon)} (this workspace)`,
        '  transport: streamable-http',
        '  url: "https://***@example.test/mcp?key=***&v=***"',
        '  headers (values not shown): ["Authorization"]',
        `  digest: ${remote?.digest}`,
        `  approve: ferry workspace approve remote@${remote?.digest}`,
        '',
      ].join('\n'),
    })
    const servers = await daemon.cli(['servers'])
    expect(servers.stdout).toContain('  env (values not shown): ["LEAK","PLAIN"]\n')
    expect(servers.stdout).toContain('  url: "https://***@example.test/mcp?key=***&v=***"\n')
    for (const text of [listed.stdout, servers.stdout]) {
      for (const value of [SECRET, 'literal-value-3c1', 'pw-5a1', 'q-secret-9', 'h-secret-4']) {
        expect(text).not.toContain(value)
      }
    }

    // Without a terminal to ask at, nothing is approved unless --yes says so.
    const unasked = await daemon.cli(['workspace', 'approve', 'local'])
    expect(unasked.code).toBe(2)
    expect(unasked.stdout).toContain(`  digest: ${local?.digest}\n`)
    expect(unasked.stderr).toBe(
      'ferry: nothing was approved: there is no terminal to ask at; review what is shown above, then ' +
        'run again with --yes, or approve each entry by the digest shown: ' +
        '`ferry workspace approve <name>@<digest>`\n',
    )
    // Approving by name alone, or by anything but a digest that was shown, is refused.
    for (const [body, message] of [
      [
        { servers: ['local'] },
        'entries: expected a list of { name, digest }, as GET /api/workspace shows them',
      ],
      [
        { entries: [{ name: 'local', digest: 'latest' }] },
        'entries.0.digest: expected the 64-character digest that GET /api/workspace shows for the entry',
      ],
    ] as const) {
      const refused = await daemon.api('/workspace/approve', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      expect(refused.status).toBe(400)
      expect(await refused.json()).toEqual({ error: { code: 'bad_request', message } })
    }
    expect((await daemon.servers()).map((server) => server.status)).toEqual([
      'awaiting_approval',
      'awaiting_approval',
    ])
  })
})
