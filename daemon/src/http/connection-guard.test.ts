import { createServer, type Server, type ServerResponse } from 'node:http'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createFileLog } from '../log.js'
import { connectionGuard, type ConnectionGuard } from './connection-guard.js'

/** A real HTTP server behind the guard: `Bearer ok` authenticates, `/hold` answers when told. */
interface Rig {
  guard: ConnectionGuard
  /** A client connection the guard has taken in. */
  open(): Promise<Socket>
  /** The status line of the answer to one request on `socket`. */
  ask(socket: Socket, path?: string, token?: string): Promise<string>
  /** Sends a `/hold` request on `socket`; resolves with its response once the server has it. */
  hold(socket: Socket): Promise<ServerResponse>
  /** The guard's log lines so far. */
  lines(): Promise<Array<Record<string, unknown>>>
  /** The guard's clock. */
  clock: { now: number }
}

const teardown: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const step of teardown.splice(0).reverse()) await step()
})

async function rig(options: { max: number; idleMs?: number }): Promise<Rig> {
  const dir = await mkdtemp(join(tmpdir(), 'ferry-guard-'))
  const logFile = join(dir, 'daemon.log')
  const clock = { now: 0 }
  const guard = connectionGuard(createFileLog(logFile), {
    max: options.max,
    idleMs: options.idleMs ?? 600_000,
    now: () => clock.now,
  })
  const held: Array<(response: ServerResponse) => void> = []
  const server: Server = createServer((request, response) => {
    if (request.headers.authorization === 'Bearer ok') {
      guard.authenticated(request.socket as Socket)
      return response.end('ok')
    }
    if (request.url === '/hold') return held.shift()?.(response)
    response.statusCode = 401
    response.end()
  })
  // Either side may learn of a new connection first; this side before the guard may close it.
  const taken = new Set<number>()
  const waiting = new Map<number, () => void>()
  server.on('connection', (socket: Socket) => {
    const port = socket.remotePort ?? 0
    taken.add(port)
    waiting.get(port)?.()
  })
  guard.watch(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const clients: Socket[] = []
  teardown.push(async () => {
    for (const client of clients) client.destroy()
    guard.close()
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
    await rm(dir, { recursive: true, force: true })
  })

  return {
    guard,
    clock,
    open: () =>
      new Promise((resolve, reject) => {
        const socket = connect(port, '127.0.0.1')
        clients.push(socket)
        socket.once('error', reject)
        socket.once('connect', () => {
          const port = socket.localPort ?? 0
          if (taken.has(port)) resolve(socket)
          else waiting.set(port, () => resolve(socket))
        })
      }),
    ask: (socket, path = '/', token) =>
      new Promise((resolve, reject) => {
        socket.once('data', (data: Buffer) => resolve(data.toString().split('\r\n')[0] ?? ''))
        socket.once('close', () => reject(new Error('closed before an answer')))
        const auth = token === undefined ? '' : `Authorization: Bearer ${token}\r\n`
        socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n${auth}\r\n`)
      }),
    hold: (socket) =>
      new Promise((resolve) => {
        held.push(resolve)
        socket.write('GET /hold HTTP/1.1\r\nHost: x\r\n\r\n')
      }),
    lines: async () =>
      (await readFile(logFile, 'utf8').catch(() => ''))
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  }
}

function closed(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.closed) return resolve()
    socket.once('close', () => resolve())
  })
}

/** The name of the first of `sockets` to close. */
function firstClosed(sockets: Record<string, Socket>): Promise<string> {
  return Promise.race(
    Object.entries(sockets).map(([name, socket]) => closed(socket).then(() => name)),
  )
}

/** Whether the connection is still served: it answers a request. */
const answers = (r: Rig, socket: Socket) => r.ask(socket)

describe('the bound on connections without a token', () => {
  it('makes room by closing the connection that has waited longest for a complete request, never one with a request in progress or one that authenticated', async () => {
    const r = await rig({ max: 4 })
    const authenticated = await r.open()
    expect(await r.ask(authenticated, '/', 'ok')).toBe('HTTP/1.1 200 OK')
    const working = await r.open()
    const response = await r.hold(working)
    // Connected before `longest`, but answered since: it has waited less for its next request.
    const answered = await r.open()
    const longest = await r.open()
    expect(await r.ask(answered)).toBe('HTTP/1.1 401 Unauthorized')
    const newer = await r.open()

    // Four are counted (working, answered, longest, newer): each newcomer pushes one out.
    const first = await r.open()
    expect(await firstClosed({ authenticated, working, answered, longest, newer })).toBe('longest')
    const second = await r.open()
    expect(await firstClosed({ authenticated, working, answered, newer, first })).toBe('answered')
    expect(await answers(r, newer)).toBe('HTTP/1.1 401 Unauthorized')
    expect(await answers(r, first)).toBe('HTTP/1.1 401 Unauthorized')
    expect(await answers(r, second)).toBe('HTTP/1.1 401 Unauthorized')
    const answer = new Promise<string>((resolve) =>
      working.once('data', (data: Buffer) => resolve(data.toString().split('\r\n')[0] ?? '')),
    )
    response.end('held')
    expect(await answer).toBe('HTTP/1.1 200 OK')
    expect(await r.ask(authenticated, '/', 'ok')).toBe('HTTP/1.1 200 OK')
  })

  it('refuses a newcomer while every connection it counts has a request in progress', async () => {
    const r = await rig({ max: 2 })
    const [one, two] = [await r.open(), await r.open()]
    const held = [await r.hold(one), await r.hold(two)]
    const newcomer = await r.open()
    expect(await firstClosed({ one, two, newcomer })).toBe('newcomer')
    const answered = [one, two].map(
      (socket) =>
        new Promise<string>((resolve) =>
          socket.once('data', (data: Buffer) => resolve(data.toString().split('\r\n')[0] ?? '')),
        ),
    )
    for (const response of held) response.end()
    expect(await Promise.all(answered)).toEqual(['HTTP/1.1 200 OK', 'HTTP/1.1 200 OK'])
  })

  it('closes a connection that brings no complete request in time, idle or sending its headers slowly', async () => {
    const r = await rig({ max: 8, idleMs: 200 })
    const idle = await r.open()
    const slow = await r.open()
    slow.write('GET / HTTP/1.1\r\nHost: x\r\n')
    const authenticated = await r.open()
    expect(await r.ask(authenticated, '/', 'ok')).toBe('HTTP/1.1 200 OK')
    await Promise.all([closed(idle), closed(slow)])
    expect(await r.ask(authenticated, '/', 'ok')).toBe('HTTP/1.1 200 OK')
    expect(await r.lines()).toEqual([])
  })

  it('logs the first eviction of a flood at once and then at most one line a minute, each with how many it stands for', async () => {
    const r = await rig({ max: 1 })
    const line = (count: number, total: number) => ({
      time: expect.any(String),
      kind: 'http.unauthenticated_evicted',
      bound: 1,
      count,
      total,
    })
    let previous = await r.open()
    const next = async () => {
      const socket = await r.open()
      await closed(previous)
      previous = socket
    }
    await next()
    expect(await r.lines()).toEqual([line(1, 1)])
    for (let i = 0; i < 4; i++) await next()
    r.clock.now = 59_999
    await next()
    expect(await r.lines()).toEqual([line(1, 1)])
    r.clock.now = 60_000
    await next()
    expect(await r.lines()).toEqual([line(1, 1), line(6, 7)])
    r.clock.now = 60_001
    await next()
    expect(await r.lines()).toEqual([line(1, 1), line(6, 7)])
    // Shutting down writes what the last line did not count.
    r.guard.close()
    expect(await r.lines()).toEqual([line(1, 1), line(6, 7), line(1, 8)])
  })
})
