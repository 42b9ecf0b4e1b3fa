// A burst of legitimate clients, each on a fresh connection, is served in full while a flood of
// connections that never show a token is held open: REST calls, gateway calls, streams and the CLI
// all get through, and the flood costs `daemon.log` at most one line a minute. The daemon runs in a
// process of its own, so that a burst arrives at once: clients inside its event loop would reach it
// one at a time.

import { request } from 'node:http'
import { connect, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import {
  STREAM_AUTH_PREFIX,
  STREAM_PROTOCOL,
  type GatewayTokenCreateResponse,
} from '../src/protocol/index.js'
import { modernBody, modernHeaders } from './gateway-wire.js'
import { cleanup, fixture, readJsonLines } from './harness.js'
import { startInProcess } from './in-process.js'

const FLOOD = 1_000
const REST_CALLS = 200
const MCP_CALLS = 100
const STREAMS = 500
const MINUTE_MS = 60_000

const held: Socket[] = []
afterEach(async () => {
  for (const socket of held.splice(0)) socket.destroy()
  await cleanup()
})

/** A connection that sends nothing, or (`slow`) a request line and headers it never finishes. */
function floodConnection(port: number, slow: boolean): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    held.push(socket)
    socket.on('error', () => {})
    socket.once('connect', () => {
      if (slow) socket.write(`POST /api/call HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Le`)
      resolve(socket)
    })
    socket.once('error', reject)
  })
}

interface Answer {
  status: number
  body: string
}

/** One request on a connection of its own, closed after the answer (`agent: false`). */
function freshRequest(
  port: number,
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: '127.0.0.1', port, path, method: 'POST', headers, agent: false },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (text += chunk))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }))
        response.on('error', reject)
      },
    )
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}

/** A stream opened with the admin token; resolves once the daemon's welcome arrives. */
function openStream(port: number, token: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/stream`, [
      STREAM_PROTOCOL,
      `${STREAM_AUTH_PREFIX}${token}`,
    ])
    ws.once('message', (data) => {
      if ((JSON.parse(String(data)) as { type?: string }).type === 'welcome') resolve(ws)
      else reject(new Error(`first stream message was not a welcome: ${String(data)}`))
    })
    ws.once('error', reject)
    ws.once('close', (code) => reject(new Error(`stream closed with ${code} before its welcome`)))
  })
}

/** How many of `promises` settled with each outcome, and the distinct reasons of the failures. */
async function outcomes<T>(promises: Array<Promise<T>>, ok: (value: T) => boolean) {
  const settled = await Promise.allSettled(promises)
  const failures = settled.flatMap((s) =>
    s.status === 'rejected'
      ? [String((s.reason as Error).message ?? s.reason)]
      : ok(s.value)
        ? []
        : [JSON.stringify(s.value).slice(0, 200)],
  )
  return { succeeded: settled.length - failures.length, failures: [...new Set(failures)] }
}

describe('a burst of clients beside a flood of connections without the token', () => {
  it('serves 200 REST calls, 100 /mcp calls, 500 streams and `ferry tools`, each on a fresh connection, while 1,000 idle or slow connections are held open', async () => {
    const daemon = await startInProcess({ mcpServers: { x: fixture([]) } })
    await daemon.waitForStatus('x', 'ready')
    const { port, token } = daemon.info
    const created = await daemon.api('/gateway/tokens', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'agent' }),
    })
    expect(created.status).toBe(201)
    const gatewayToken = ((await created.json()) as GatewayTokenCreateResponse).token
    const logFile = `${daemon.stateDir}/daemon.log`
    const floodLines = async () =>
      (await readJsonLines(logFile)).filter((e) => e.kind === 'http.unauthenticated_evicted')
    expect(await floodLines()).toEqual([])
    const began = Date.now()

    // Opened a hundred at a time so none waits on the listen backlog.
    for (let i = 0; i < FLOOD; i += 100) {
      await Promise.all(
        Array.from({ length: 100 }, (_, j) => floodConnection(port, (i + j) % 2 === 1)),
      )
    }

    const rest = Array.from({ length: REST_CALLS }, (_, i) =>
      freshRequest(
        port,
        '/api/call',
        {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        JSON.stringify({ tool: 'mcp_x_echo', arguments: { text: `rest ${i}` } }),
      ),
    )
    const gateway = Array.from({ length: MCP_CALLS }, (_, i) =>
      freshRequest(
        port,
        '/mcp',
        {
          authorization: `Bearer ${gatewayToken}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...modernHeaders('tools/call', 'mcp_x_echo'),
        },
        JSON.stringify(
          modernBody('tools/call', { name: 'mcp_x_echo', arguments: { text: `mcp ${i}` } }, i),
        ),
      ),
    )
    const streams = Array.from({ length: STREAMS }, () => openStream(port, token))
    const cli = daemon.cli(['tools'])

    const [restDone, gatewayDone, streamsDone, tools] = await Promise.all([
      outcomes(rest, (a) => a.status === 200 && a.body.includes('"rest ')),
      outcomes(gateway, (a) => a.status === 200 && a.body.includes('mcp ')),
      outcomes(streams, () => true),
      cli,
    ])
    for (const settled of await Promise.allSettled(streams)) {
      if (settled.status === 'fulfilled') settled.value.close()
    }
    expect(restDone).toEqual({ succeeded: REST_CALLS, failures: [] })
    expect(gatewayDone).toEqual({ succeeded: MCP_CALLS, failures: [] })
    expect(streamsDone).toEqual({ succeeded: STREAMS, failures: [] })
    expect(tools.code, tools.stderr).toBe(0)
    expect(tools.stdout).toContain('mcp_x_echo')

    // At most one line for the flood in each minute begun since it started.
    const lines = await floodLines()
    expect(lines.length).toBeLessThanOrEqual(Math.ceil((Date.now() - began) / MINUTE_MS))
  })
})
