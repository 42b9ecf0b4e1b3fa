// Cursor's and VS Code's own files, as their docs write them, pointed at the fixture servers through
// those hosts' variable syntax: what connects, over which transport, with which environment.

import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { copyFile, mkdir, readFile, stat, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import {
  cleanup,
  httpServerPath,
  sseServerPath,
  startDaemon,
  stdioServerPath,
  tempDir,
} from './harness.js'

const hostConfigs = fileURLToPath(new URL('../../e2e/fixtures/host-configs/', import.meta.url))

const servers: Array<() => void> = []
afterEach(async () => {
  for (const stop of servers.splice(0)) stop()
  await cleanup()
})

async function startHttpFixture(path: string): Promise<string> {
  const child = spawn(process.execPath, [path, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  servers.push(() => child.kill('SIGTERM'))
  const lines = createInterface({ input: child.stdout })
  for await (const line of lines) return (JSON.parse(line) as { url: string }).url
  throw new Error('http fixture printed no url')
}

/** Copies a host's file into a fresh workspace as `as`, with a `.env` beside it, and starts there. */
async function startWithHostFile(fixture: string, as: string) {
  const [httpUrl, sseUrl] = await Promise.all([
    startHttpFixture(httpServerPath),
    startHttpFixture(sseServerPath),
  ])
  const stateDir = await tempDir('ferry-state-')
  const workspace = `${stateDir}.workspace`
  const file = join(workspace, as)
  await mkdir(join(file, '..'), { recursive: true })
  await copyFile(join(hostConfigs, fixture), file)
  await writeFile(join(workspace, '.env'), 'FROM_ENV_FILE=env file\nSHARED=from the env file\n')
  const daemon = await startDaemon(null, {
    stateDir,
    args: ['--config', file],
    env: {
      FIXTURE_NODE: process.execPath,
      FIXTURE_STDIO_SERVER: stdioServerPath,
      FIXTURE_HTTP_URL: httpUrl,
      FIXTURE_SSE_URL: sseUrl,
    },
  })
  return { daemon, workspace, sseUrl }
}

async function serverEnv(daemon: Awaited<ReturnType<typeof startDaemon>>, tool: string) {
  const call = await daemon.cli(['call', tool, '{}'])
  expect(call.code, call.stderr).toBe(0)
  return JSON.parse(call.stdout) as Record<string, string>
}

describe("other hosts' config files with real servers", () => {
  it('connects a Cursor .cursor/mcp.json: bare urls over Streamable HTTP and, falling back, SSE', async () => {
    const { daemon, workspace, sseUrl } = await startWithHostFile(
      'cursor-fixtures.mcp.json',
      '.cursor/mcp.json',
    )
    expect(await daemon.waitForStatus('streamable', 'ready')).toMatchObject({
      transport: 'streamable-http',
    })
    expect(await daemon.waitForStatus('older-sse', 'ready')).toMatchObject({ transport: 'sse' })
    await daemon.waitForStatus('local', 'ready')
    expect((await daemon.cli(['call', 'mcp_older-sse_echo', '{"text":"hi"}'])).stdout).toBe('hi\n')
    const captured = (await (await fetch(new URL('/captured', sseUrl))).json()) as Array<{
      method: string
    }>
    expect(captured.map((request) => request.method)).toContain('GET')

    // ${workspaceFolder} in args, and the envFile under the explicit env.
    expect(existsSync(join(workspace, 'spawned.jsonl'))).toBe(true)
    expect(await serverEnv(daemon, 'mcp_local_env')).toMatchObject({
      FROM_ENV_FILE: 'env file',
      FROM_SETTINGS: 'settings',
      SHARED: 'explicit env wins',
    })
  })

  it('connects a VS Code .vscode/mcp.json and names the unanswered input and the unknown placeholder', async () => {
    const { daemon, workspace } = await startWithHostFile(
      'vscode-fixtures.mcp.json',
      '.vscode/mcp.json',
    )
    expect(await daemon.waitForStatus('streamable', 'ready')).toMatchObject({
      transport: 'streamable-http',
    })
    expect(await daemon.waitForStatus('older-sse', 'ready')).toMatchObject({ transport: 'sse' })
    await daemon.waitForStatus('local', 'ready')
    expect(await serverEnv(daemon, 'mcp_local_env')).toMatchObject({ FROM_ENV_FILE: 'env file' })

    const needsKey = await daemon.waitForStatus('needs-key', 'invalid')
    expect(needsKey.error).toBe(
      'mcpServers.needs-key.env.API_KEY: ${input:api-key} ("Fixture API key") has no answer; give ' +
        "it with `ferry config input api-key` (kept in Ferry's own inputs.json), or in your Ferry " +
        'settings with "inputs": { "api-key": "…" }',
    )
    const picks = await daemon.waitForStatus('picks-file', 'invalid')
    expect(picks.error).toMatch(
      /^mcpServers\.picks-file\.args\[2\]: placeholder \$\{command:pickFile\}/,
    )
    expect(existsSync(join(workspace, 'needs-key.jsonl'))).toBe(false)
    expect(existsSync(join(workspace, '${command:pickFile}'))).toBe(false)

    // Answered without editing VS Code's file: kept in Ferry's own inputs.json, used at once.
    const vscodeFile = await readFile(join(workspace, '.vscode/mcp.json'), 'utf8')
    // The daemon's config home (a fresh one of the test's), for the command line too.
    const env = { XDG_CONFIG_HOME: dirname(dirname(daemon.userSettingsPath)) }
    const answered = await daemon.cli(['config', 'input', 'api-key'], { env, input: 'k$y-1\n' })
    expect(answered.code, answered.stderr).toBe(0)
    const answers = join(dirname(daemon.userSettingsPath), 'inputs.json')
    expect(answered.stdout).toBe(
      `Saved the answer to \${input:api-key} in ${answers}.\nReconnected: needs-key\n` +
        'Unchanged: local, streamable, older-sse, picks-file\n',
    )
    await daemon.waitForStatus('needs-key', 'ready')
    // What was typed reaches the server as typed, `$` and all.
    expect(await serverEnv(daemon, 'mcp_needs-key_env')).toMatchObject({ API_KEY: 'k$y-1' })
    expect((await stat(answers)).mode & 0o777).toBe(0o600)
    expect(await readFile(join(workspace, '.vscode/mcp.json'), 'utf8')).toBe(vscodeFile)

    // A variable instead of the value; and no answer, nothing saved.
    const fromEnv = await daemon.cli(['config', 'input', 'api-key', '--from-env', 'FIXTURE_NODE'], {
      env,
    })
    expect(fromEnv.code, fromEnv.stderr).toBe(0)
    expect(JSON.parse(await readFile(answers, 'utf8'))).toEqual({ 'api-key': '${FIXTURE_NODE}' })
    const empty = await daemon.cli(['config', 'input', 'other'], { env, input: '' })
    expect(empty).toMatchObject({ code: 2, stdout: '' })
    expect(empty.stderr).toContain('no answer given for ${input:other}; nothing was saved')
  })
})
