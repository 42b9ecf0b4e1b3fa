// The state directory and the runtime file are trusted only when they are the user's own: a link
// another user planted on the way to the state directory, or a directory of theirs, is refused
// before anything is changed there, and the CLI refuses a daemon.json it cannot trust.

import { execFileSync } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import {
  chmod,
  chown,
  lchown,
  mkdir,
  readdir,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, runCli, tempDir, type CliResult } from './harness.js'
import { runCliInProcess } from './cli-in-process.js'
import { startInProcess } from './in-process.js'

afterEach(cleanup)

const listeners: Server[] = []
afterEach(async () => {
  for (const server of listeners.splice(0)) await new Promise((resolve) => server.close(resolve))
})

/** Another user: as root the tests can hand a file or a link to them. */
const NOBODY = 65534
/** How a refusal names that user: the system's own name for the account, and its uid. */
const nobody = `${execFileSync('id', ['-nu', String(NOBODY)], { encoding: 'utf8' }).trim()}, uid ${NOBODY}`

/** `ferry serve`, which should refuse at once; one that starts instead is stopped within the test. */
async function serve(stateDir: string): Promise<CliResult> {
  const config = join(await tempDir('ferry-config-'), 'settings.json')
  await writeFile(config, JSON.stringify({ mcpServers: {} }))
  return runCli(['serve', '--state-dir', stateDir, '--config', config, '--port', '0'], {
    timeoutMs: 15_000,
  })
}

function expectRefused(result: CliResult, message: string): void {
  expect(result.code, result.stderr).toBe(2)
  expect(result.stdout).toBe('')
  expect(result.stderr.trim().split('\n')).toEqual([`ferry: ${message}`])
}

/** A directory that is someone's to point a link at, with a mode Ferry would change. */
async function target(): Promise<string> {
  const dir = await tempDir('ferry-target-')
  await chmod(dir, 0o755)
  return dir
}

const advice = '; use a directory of your own (--state-dir or FERRY_STATE_DIR)'

describe('the state directory', () => {
  it("refuses a state directory that is another user's symbolic link, and leaves where it leads alone", async () => {
    const elsewhere = await target()
    const link = join(await tempDir(), 'state')
    await symlink(elsewhere, link)
    await lchown(link, NOBODY, NOBODY)
    const why = `refusing the state directory ${link}: ${link} is a symbolic link owned by another user (${nobody})${advice}`
    expectRefused(await serve(link), why)
    expectRefused(await runCli(['start', '--state-dir', link]), why)
    expect((await stat(elsewhere)).mode & 0o777).toBe(0o755)
    expect(await readdir(elsewhere)).toEqual([])
  })

  it("refuses a parent on the way that is another user's symbolic link, creating nothing behind it", async () => {
    const elsewhere = await target()
    const parent = join(await tempDir(), 'parent')
    await symlink(elsewhere, parent)
    await lchown(parent, NOBODY, NOBODY)
    const stateDir = join(parent, 'ferry', 'state')
    expectRefused(
      await serve(stateDir),
      `refusing the state directory ${stateDir}: ${parent} is a symbolic link owned by another user (${nobody})${advice}`,
    )
    expect(await readdir(elsewhere)).toEqual([])
  })

  it('refuses a state directory owned by another user without changing its mode', async () => {
    const theirs = await target()
    await chown(theirs, NOBODY, NOBODY)
    expectRefused(
      await serve(theirs),
      `refusing the state directory ${theirs}: ${theirs} belongs to another user (${nobody})${advice}`,
    )
    expect((await stat(theirs)).mode & 0o777).toBe(0o755)
    expect(await readdir(theirs)).toEqual([])
  })

  it('refuses a state directory under a parent another user owns, naming them, and creates nothing there', async () => {
    const hers = join(await tempDir(), 'hers')
    await mkdir(hers, { mode: 0o755 })
    await chown(hers, NOBODY, NOBODY)
    const why = (stateDir: string) =>
      `refusing the state directory ${stateDir}: its parent ${hers} belongs to another user (${nobody}), who could replace what is in it${advice}`
    const missing = join(hers, 'ferry', 'state')
    expectRefused(await serve(missing), why(missing))
    expect(await readdir(hers)).toEqual([])
    // A private directory of the user's own, made there before: still hers to swap.
    const mine = join(hers, 'mine')
    await mkdir(mine, { mode: 0o700 })
    expectRefused(await serve(mine), why(mine))
    expectRefused(await runCli(['start', '--state-dir', mine]), why(mine))
    expect(await readdir(mine)).toEqual([])
    // The way through the user's own link counts too: the link leads under her directory.
    const link = join(await tempDir(), 'state')
    await symlink(mine, link)
    expectRefused(await serve(link), why(link))
    expect(await readdir(mine)).toEqual([])
  })

  it('refuses a parent every user may write to without the sticky bit, and takes one with it', async () => {
    const open = join(await tempDir(), 'open')
    await mkdir(open)
    await chmod(open, 0o777)
    const stateDir = join(open, 'state')
    expectRefused(
      await serve(stateDir),
      `refusing the state directory ${stateDir}: its parent ${open} is writable by every user (mode 777) without the sticky bit, so anyone could replace what is in it${advice}`,
    )
    expect(await readdir(open)).toEqual([])
    // As /tmp is: others may add entries but not rename or remove the user's.
    await chmod(open, 0o1777)
    const daemon = await startInProcess({ mcpServers: {} }, { stateDir })
    expect(await readdir(stateDir)).toContain('daemon.json')
    await daemon.stop()
  })

  it("follows the user's own link to a directory of theirs, and makes that directory private", async () => {
    const mine = await target()
    const link = join(await tempDir(), 'state')
    await symlink(mine, link)
    const daemon = await startInProcess({ mcpServers: {} }, { stateDir: link })
    expect((await stat(mine)).mode & 0o777).toBe(0o700)
    expect(await readdir(mine)).toContain('daemon.json')
    await daemon.stop()
  })
})

describe('the runtime file', () => {
  /** A listener that counts what reaches it, behind a planted daemon.json. */
  async function planted(): Promise<{ stateDir: string; record: string; requests: () => number }> {
    let requests = 0
    const server = createServer((_request, response) => {
      requests++
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ version: 'planted', pid: process.pid, servers: [] }))
    })
    listeners.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as { port: number }).port
    const stateDir = await tempDir('ferry-state-')
    await chmod(stateDir, 0o700)
    const record = JSON.stringify({
      pid: process.pid,
      port,
      host: '127.0.0.1',
      url: `http://127.0.0.1:${port}/`,
      version: 'planted',
      token: 'A'.repeat(43),
      startedAt: new Date().toISOString(),
      stoppedAt: null,
    })
    return { stateDir, record, requests: () => requests }
  }

  const refusal = (stateDir: string, problem: string) =>
    `refusing the runtime file ${join(stateDir, 'daemon.json')}: it is ${problem}, and Ferry trusts only a regular file of yours with mode 600; remove it and run \`ferry start\``

  it('is refused by the CLI when readable by others, a link, or not the user’s, and nothing is sent', async () => {
    const { stateDir, record, requests } = await planted()
    const path = join(stateDir, 'daemon.json')
    const commands = [['status'], ['servers'], ['call', 'mcp_x_echo', '{}', '--json'], ['start']]

    await writeFile(path, record, { mode: 0o644 })
    await chmod(path, 0o644)
    for (const args of commands) {
      expectRefused(
        await runCliInProcess(['--state-dir', stateDir, ...args]),
        refusal(stateDir, 'readable by others (mode 644, not 600)'),
      )
    }

    const elsewhere = join(await tempDir(), 'daemon.json')
    await writeFile(elsewhere, record, { mode: 0o600 })
    await rm(path)
    await symlink(elsewhere, path)
    for (const args of commands) {
      expectRefused(
        await runCliInProcess(['--state-dir', stateDir, ...args]),
        refusal(stateDir, 'a symbolic link'),
      )
    }

    await rm(path)
    await mkdir(path)
    expectRefused(
      await runCliInProcess(['--state-dir', stateDir, 'status']),
      refusal(stateDir, 'not a regular file'),
    )
    await rm(path, { recursive: true })
    await writeFile(path, record, { mode: 0o600 })
    await chown(path, NOBODY, NOBODY)
    for (const args of commands) {
      expectRefused(
        await runCliInProcess(['--state-dir', stateDir, ...args]),
        refusal(stateDir, `owned by another user (uid ${NOBODY})`),
      )
    }
    // Every command has exited: nothing can reach the planted listener any more.
    expect(requests()).toBe(0)

    // The control: the same record as a private file of the user's is used.
    await chown(path, process.getuid?.() ?? 0, process.getgid?.() ?? 0)
    const trusted = await runCliInProcess(['--state-dir', stateDir, 'status', '--json'])
    expect(trusted.stdout).toContain('planted')
    expect(requests()).toBe(1)
  })
})
