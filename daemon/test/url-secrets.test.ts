// A secret expanded into a remote server's URL (`?key=${VAR}`, `user:${VAR}@`) reaches the server
// and nothing else: daemon.log, the transcript, the server list, `ferry servers`, a server's log
// and the error of a call show the URL redacted.

import { spawn, type ChildProcess } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { createInterface } from 'node:readline'
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, httpServerPath } from './harness.js'
import { startInProcess } from './in-process.js'

const KEY = 'S3CR3T-query-value'
const PASS = 'pa55-userinfo-value'

const children: ChildProcess[] = []
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL')
  await cleanup()
})

/** The HTTP fixture; resolves to its MCP URL and a way to stop it. */
async function httpFixture(): Promise<{ url: string; kill(): Promise<void> }> {
  const child = spawn(process.execPath, [httpServerPath, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  children.push(child)
  const exited = new Promise((resolve) => child.once('exit', resolve))
  for await (const line of createInterface({ input: child.stdout })) {
    const { url } = JSON.parse(line) as { url: string }
    return { url, kill: async () => void (child.kill('SIGKILL'), await exited) }
  }
  throw new Error('the http fixture printed no url')
}

describe('secrets in a server URL', () => {
  it('are sent to the server and shown nowhere: log, transcript, server list, ferry servers, call errors', async () => {
    const fixture = await httpFixture()
    const daemon = await startInProcess(
      {
        mcpServers: {
          remote: { httpUrl: `${fixture.url}?key=\${SECRET_URL}`, trust: true },
          nowhere: { httpUrl: 'http://127.0.0.1:1/mcp?key=${SECRET_URL}' },
          userinfo: { httpUrl: 'http://user:${SECRET_PASS}@127.0.0.1:1/mcp?key=${SECRET_URL}' },
        },
      },
      { env: { SECRET_URL: KEY, SECRET_PASS: PASS } },
    )
    await daemon.waitForStatus('remote', 'ready')
    // The key reaches the server: the call goes through the URL that carries it.
    expect(await daemon.cli(['call', 'mcp_remote_echo', '{"text":"up"}'])).toMatchObject({
      code: 0,
      stdout: 'up\n',
    })

    const servers = new Map((await daemon.servers()).map((server) => [server.name, server]))
    expect(servers.get('nowhere')?.status).toBe('failed')
    expect(servers.get('nowhere')?.error).toBe(
      'cannot reach http://127.0.0.1:1/mcp?key=***: fetch failed: bad port',
    )
    expect(servers.get('userinfo')).toMatchObject({
      status: 'invalid',
      error:
        'mcpServers.userinfo.httpUrl: http://***@127.0.0.1:1/mcp?key=*** has a user name or password in it, which Ferry cannot send; put the credentials in "headers" instead, e.g. "Authorization": "Basic …"',
    })

    // Down, then a reconnect that cannot reach it: its status names the URL.
    await fixture.kill()
    const unreachable = `cannot reach ${fixture.url}?key=***: connection refused (ECONNREFUSED)`
    await daemon.waitForEvent(
      (event) =>
        event.type === 'server.status' && event.server === 'remote' && event.error === unreachable,
      20_000,
    )
    const call = await daemon.cli(['call', 'mcp_remote_echo', '{"text":"down"}'])
    expect(call.code).not.toBe(0)
    expect(call.stderr).toContain(unreachable)

    const shown = {
      'daemon.log': await readFile(`${daemon.stateDir}/daemon.log`, 'utf8'),
      transcript: JSON.stringify(await daemon.events()),
      'GET /api/servers': JSON.stringify(await daemon.servers()),
      'ferry servers': (await daemon.cli(['servers'])).stdout,
      'ferry servers --json': (await daemon.cli(['servers', '--json'])).stdout,
      'the server log': await (await daemon.api('/servers/remote/logs')).text(),
      'ferry status': (await daemon.cli(['status', '--json'])).stdout,
      'the failed call': call.stderr,
    }
    expect(shown['ferry servers']).toContain('?key=***')
    expect(shown['daemon.log']).toContain('?key=***')
    for (const [where, text] of Object.entries(shown)) {
      expect(text, where).not.toContain(KEY)
      expect(text, where).not.toContain(PASS)
    }
  })
})
