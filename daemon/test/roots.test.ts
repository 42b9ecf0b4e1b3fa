import { createRequire } from 'node:module'
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, runCli, startDaemon, tempDir, waitFor, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'

// Roots that respect a server's own setup: `@modelcontextprotocol/server-filesystem` replaces the
// directories it was started with by the roots a client gives, so Ferry declares roots only where
// it knows a workspace (`--workspace`, or a `.ferry/settings.json` where it started) or the
// server's settings list them.

const filesystemServer = join(
  dirname(
    createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/package.json'),
  ),
  'dist',
  'index.js',
)

afterEach(cleanup)

/** A directory holding `note.txt`, to start the filesystem server on. */
async function notes(): Promise<string> {
  const dir = await tempDir('ferry-notes-')
  await writeFile(join(dir, 'note.txt'), 'kept in its own folder')
  return dir
}

function files(dir: string, extra: Record<string, unknown> = {}) {
  return { command: process.execPath, args: [filesystemServer, dir], trust: true, ...extra }
}

async function read(daemon: Daemon, server: string, path: string): Promise<string> {
  await daemon.waitForStatus(server, 'ready')
  const response = await daemon.api('/call', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tool: `mcp_${server}_read_text_file`, arguments: { path } }),
  })
  const body = (await response.json()) as {
    result: { content: { text: string }[]; isError?: boolean }
  }
  return body.result.content.map((block) => block.text).join('')
}

describe('roots', () => {
  it('leaves a server its own directories when Ferry started somewhere without a workspace', async () => {
    const dir = await notes()
    const daemon = await startInProcess({ mcpServers: { files: files(dir) } })
    expect(await read(daemon, 'files', join(dir, 'note.txt'))).toBe('kept in its own folder')
    const [row] = await daemon.servers()
    expect(row).toMatchObject({ name: 'files', roots: null })
    const json = JSON.parse((await daemon.cli(['servers', '--json'])).stdout) as {
      roots: unknown
    }[]
    expect(json[0]?.roots).toBeNull()
  })

  it('tells servers the workspace a .ferry/settings.json marks, or the roots their settings list', async () => {
    const dir = await notes()
    const daemon = await startInProcess(null, {
      userSettings: {
        mcpServers: { files: files(dir), listed: files(dir, { roots: [dir] }) },
      },
      workspaceSettings: { mcpServers: {} },
    })
    await writeFile(join(daemon.workspace, 'here.txt'), 'in the workspace')
    // The workspace is now the server's one directory, as its documentation says of roots.
    // (It asks for them once connected, so the first read may come before they arrive.)
    await waitFor(
      async () =>
        (await read(daemon, 'files', join(daemon.workspace, 'here.txt'))) === 'in the workspace' ||
        undefined,
      10_000,
      'the server to take the workspace as its root',
    )
    expect(await read(daemon, 'files', join(dir, 'note.txt'))).toMatch(/Access denied/)
    expect(await read(daemon, 'listed', join(dir, 'note.txt'))).toBe('kept in its own folder')
    const rows = await daemon.servers()
    expect(rows.find((row) => row.name === 'files')?.roots).toEqual([daemon.workspace])
    expect(rows.find((row) => row.name === 'listed')?.roots).toEqual([dir])
  })

  it('tells servers the workspace named with --workspace, and refuses one that does not exist', async () => {
    const workspace = await tempDir('ferry-workspace-')
    await mkdir(join(workspace, 'src'))
    await writeFile(join(workspace, 'src', 'a.txt'), 'named on purpose')
    const daemon = await startDaemon(
      { mcpServers: { files: files(await notes()) } },
      { args: ['--workspace', workspace] },
    )
    await waitFor(
      async () =>
        (await read(daemon, 'files', join(workspace, 'src', 'a.txt'))) === 'named on purpose' ||
        undefined,
      10_000,
      'the server to take the named workspace as its root',
    )
    expect((await daemon.servers())[0]?.roots).toEqual([workspace])
    expect(
      (await daemon.api('/status').then((r) => r.json())) as { workspace: string },
    ).toMatchObject({
      workspace,
    })

    const missing = await runCli([
      'serve',
      '--state-dir',
      await tempDir(),
      '--workspace',
      join(workspace, 'nope'),
    ])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toBe(
      `ferry: --workspace ${join(workspace, 'nope')}: no such directory\n`,
    )
  })
})
