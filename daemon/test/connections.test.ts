// Connections that never show the token cannot lock clients out: the daemon holds at most a quarter
// of its open-file limit of them, at most 1,024 (a new one pushes out the one that has waited
// longest for its request), closes idle and slow ones within seconds, and keeps its soft open-file
// limit at the hard limit, so the CLI still gets in under a low `ulimit -n`.

import { connect, type Socket } from 'node:net'
import { readFile } from 'node:fs/promises'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { STREAM_AUTH_PREFIX, STREAM_PROTOCOL } from '../src/protocol/index.js'
import { cleanup, fixture, startDaemon } from './harness.js'

afterEach(cleanup)

const held: Socket[] = []
afterEach(() => {
  for (const socket of held.splice(0)) socket.destroy()
})

/** A TCP connection to the daemon that sends nothing unless told to. */
function idleConnection(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    held.push(socket)
    socket.once('connect', () => resolve(socket))
    socket.once('error', reject)
  })
}

function closed(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve()
    socket.once('close', () => resolve())
  })
}

/** The soft and hard `Max open files` of a running process. */
async function openFileLimits(pid: number): Promise<{ soft: string; hard: string }> {
  const limits = await readFile(`/proc/${pid}/limits`, 'utf8')
  const match = /^Max open files\s+(\S+)\s+(\S+)/m.exec(limits)
  return { soft: match?.[1] ?? '', hard: match?.[2] ?? '' }
}

describe('connections without the token', () => {
  it('leave `ferry status` and a call working under `ulimit -n 256` while 300 of them are held open', async () => {
    const daemon = await startDaemon({ mcpServers: { x: fixture([]) } }, { ulimit: ['-n', '256'] })
    expect(await openFileLimits(daemon.info.pid)).toEqual({ soft: '256', hard: '256' })
    await daemon.waitForStatus('x', 'ready')
    const sockets = await Promise.all(
      Array.from({ length: 300 }, () => idleConnection(daemon.info.port)),
    )
    const status = await daemon.cli(['status'])
    expect(status.code, status.stderr).toBe(0)
    expect(status.stdout).toContain(`(pid ${daemon.info.pid})`)
    const call = await daemon.cli(['call', 'mcp_x_echo', '{"text":"still here"}', '--json'])
    expect(call.code, call.stderr).toBe(0)
    expect(call.stdout).toContain('still here')
    // The oldest were pushed out as the newest came in.
    await closed(sockets[0] as Socket)
    const log = await readFile(`${daemon.stateDir}/daemon.log`, 'utf8')
    expect(log).toContain('http.unauthenticated_evicted')
  })

  it('are pushed out longest waiting first once 64 are open under `ulimit -n 256`, and closed within seconds when idle or slow', async () => {
    // A quarter of 256 open files.
    const daemon = await startDaemon({ mcpServers: {} }, { ulimit: ['-n', '256'] })
    const { port, token } = daemon.info
    // An authenticated stream opened first: it must outlive every unauthenticated connection.
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/stream`, [
      STREAM_PROTOCOL,
      `${STREAM_AUTH_PREFIX}${token}`,
    ])
    const welcome = new Promise<void>((resolve) => ws.once('message', () => resolve()))
    await welcome

    const first = await idleConnection(port)
    const slow = await idleConnection(port)
    // Headers a byte at a time, never finished.
    const header = Buffer.from(`GET /api/status HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`)
    let sent = 0
    const drip = setInterval(() => {
      if (!slow.destroyed && sent < header.length) slow.write(header.subarray(sent, ++sent))
    }, 200)
    try {
      const rest = await Promise.all(Array.from({ length: 62 }, () => idleConnection(port)))
      expect(first.destroyed).toBe(false)
      // The 65th: the one that has waited longest for a request makes room for it. Its answer to a
      // request comes after the daemon took it in, and so after the eviction was logged.
      const newest = await idleConnection(port)
      const answered = new Promise<string>((resolve) =>
        newest.once('data', (data: Buffer) => resolve(data.toString())),
      )
      newest.write(`GET /api/status HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`)
      expect(await answered).toMatch(/^HTTP\/1\.1 401/)
      const log = await readFile(`${daemon.stateDir}/daemon.log`, 'utf8')
      expect(log).toMatch(/"kind":"http\.unauthenticated_evicted","bound":64,"count":1,"total":1\}/)
      await closed(first)
      // The rest, the slow one included, are cut once idle for a few seconds.
      await Promise.all([closed(slow), closed(newest), ...rest.map(closed)])
    } finally {
      clearInterval(drip)
    }
    // The authenticated stream is still there: a subscribe is answered.
    const answer = new Promise<string>((resolve) =>
      ws.once('message', (data) => resolve(String(data))),
    )
    ws.send(JSON.stringify({ type: 'subscribe' }))
    expect(JSON.parse(await answer)).toMatchObject({ type: 'subscribed' })
    ws.close()
  })

  it('raises the soft open-file limit to the hard limit at start', async () => {
    const daemon = await startDaemon({ mcpServers: {} }, { ulimit: ['-S', '-n', '256'] })
    const limits = await openFileLimits(daemon.info.pid)
    expect(limits.soft).not.toBe('256')
    expect(limits.soft).toBe(limits.hard)
  })
})
