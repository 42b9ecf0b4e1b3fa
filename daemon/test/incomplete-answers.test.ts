// Every CLI command that does not get a complete answer exits 2 with a one-line reason: against a
// real listener that plays a broken daemon (cut connections, empty or non-JSON bodies, an NDJSON
// answer without its last line) and against the real daemon killed mid-call.

import { spawn } from 'node:child_process'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { RuntimeInfo } from '../src/daemon/runtime-file.js'
import { cleanup, ferryBin, fixture, startDaemon, tempDir, type CliResult } from './harness.js'
import { runCliInProcess } from './cli-in-process.js'

afterEach(cleanup)

const servers: Server[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

type Answer = (request: IncomingMessage, response: ServerResponse) => void

/** A loopback listener answering every request with `answer`, behind a runtime file of ours. */
async function brokenDaemon(answer: Answer): Promise<{ stateDir: string; requests: string[] }> {
  const requests: string[] = []
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`)
    answer(request, response)
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  const stateDir = await tempDir('ferry-state-')
  const info: RuntimeInfo = {
    // A live pid, so that commands that check it go on to ask.
    pid: process.pid,
    port,
    host: '127.0.0.1',
    url: `http://127.0.0.1:${port}/`,
    version: '0.0.0',
    token: 'A'.repeat(43),
    startedAt: new Date().toISOString(),
    stoppedAt: null,
  }
  await writeFile(join(stateDir, 'daemon.json'), JSON.stringify(info), { mode: 0o600 })
  return { stateDir, requests }
}

function expectIncomplete(result: CliResult, what: string, missing: RegExp): void {
  expect(result.code, result.stderr).toBe(2)
  expect(result.stdout).toBe('')
  const lines = result.stderr.trim().split('\n')
  expect(lines, result.stderr).toHaveLength(1)
  expect(lines[0]).toContain(`ferry: no complete answer from Ferry to ${what}: `)
  expect(lines[0]).toMatch(missing)
}

const commands: Array<[string[], string]> = [
  [['status'], 'GET /api/status'],
  [['status', '--json'], 'GET /api/status'],
  [['servers', '--json'], 'GET /api/servers'],
  [['tools'], 'GET /api/tools'],
  [['sessions', '--json'], 'GET /api/sessions'],
  [['sessions', 'new'], 'POST /api/sessions'],
  [['reload'], 'POST /api/reload'],
  [['logs', 'x'], 'GET /api/servers/x/logs'],
  [['reconnect', 'x'], 'POST /api/servers/x/reconnect'],
]

/** Every command at once, each through the command line's `main` as the binary runs it. */
function runAll(stateDir: string) {
  return Promise.all(commands.map(([args]) => runCliInProcess(['--state-dir', stateDir, ...args])))
}

describe('an incomplete answer', () => {
  it('makes every command exit 2 when a 200 comes with an empty body', async () => {
    const daemon = await brokenDaemon((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end()
    })
    const results = await runAll(daemon.stateDir)
    for (const [index, result] of results.entries()) {
      expectIncomplete(result, commands[index]?.[1] ?? '', /the answer \(HTTP 200\) was empty/)
    }
    expect(daemon.requests).toHaveLength(commands.length)
  })

  it('makes every command exit 2 when the body is not JSON or the connection breaks mid-body', async () => {
    let cut = false
    const daemon = await brokenDaemon((_request, response) => {
      if (!cut) {
        response.writeHead(200, { 'content-type': 'application/json' })
        response.end('<html>busy</html>')
        return
      }
      // Promises 100 bytes, sends 10, then drops the connection.
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' })
      response.write('[{"name":"')
      setImmediate(() => response.socket?.destroy())
    })
    for (const [index, result] of (await runAll(daemon.stateDir)).entries()) {
      expectIncomplete(result, commands[index]?.[1] ?? '', /the answer \(HTTP 200\) is not JSON/)
    }
    cut = true
    for (const [index, result] of (await runAll(daemon.stateDir)).entries()) {
      expectIncomplete(
        result,
        commands[index]?.[1] ?? '',
        /the connection broke .* while the answer was read/,
      )
    }
  })

  it('makes `ferry call` exit 2 when the NDJSON answer ends, breaks or is cut before its result', async () => {
    const ndjson = (body: (response: ServerResponse) => void) =>
      brokenDaemon((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/x-ndjson' })
        response.write(`${JSON.stringify({ call: { id: 'c1', session: 's1' } })}\n`)
        body(response)
      })
    const ended = await ndjson((response) =>
      response.end(`${JSON.stringify({ progress: { progress: 1, total: 2 } })}\n`),
    )
    const broken = await ndjson((response) => setImmediate(() => response.socket?.destroy()))
    const torn = await ndjson((response) => response.end('{"result":{"content":[{"ty'))
    const empty = await brokenDaemon((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/x-ndjson' })
      response.end()
    })
    const call = (stateDir: string, json: boolean) =>
      runCliInProcess([
        '--state-dir',
        stateDir,
        'call',
        'mcp_x_echo',
        '{}',
        '-y',
        ...(json ? ['--json'] : []),
      ])
    for (const json of [true, false]) {
      expectIncomplete(
        await call(ended.stateDir, json),
        'POST /api/call',
        /the answer ended before a result or error line;/,
      )
      expectIncomplete(
        await call(broken.stateDir, json),
        'POST /api/call',
        /the connection broke \(.+\) before the result/,
      )
      expectIncomplete(
        await call(torn.stateDir, json),
        'POST /api/call',
        /ended before a result or error line, and its last line was cut off/,
      )
      expectIncomplete(
        await call(empty.stateDir, json),
        'POST /api/call',
        /the answer ended before a result or error line;/,
      )
    }
  })

  it('makes `ferry call --json` exit 2 with a reason when the daemon is killed mid-call', async () => {
    const daemon = await startDaemon({ mcpServers: { x: fixture([]) } })
    await daemon.waitForStatus('x', 'ready')
    const child = spawn(
      process.execPath,
      [
        ferryBin,
        '--state-dir',
        daemon.stateDir,
        'call',
        'mcp_x_slow',
        '{"steps":600,"delayMs":100}',
        '--json',
        '-y',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    // `close`, not `exit`: what the command wrote to its pipes may be read after it exited.
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve))
    // The call runs: its first progress is stored.
    await daemon.waitForEvent((event) => event.type === 'call.progress')
    daemon.process.kill('SIGKILL')
    const code = await exited
    expectIncomplete({ code: code ?? 99, stdout, stderr }, 'POST /api/call', /connection broke/)
  })
})
