import { spawn, type ChildProcess } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { createInterface } from 'node:readline'
import WebSocket from 'ws'
import { afterEach, describe, expect, it } from 'vitest'
import type { TranscriptEvent } from '../src/protocol/index.js'
import {
  cleanup,
  ferryBin,
  fixture,
  readJsonLines,
  startDaemon,
  waitFor,
  type Daemon,
} from './harness.js'
import { startInProcess } from './in-process.js'
import { openStream, streamUrl } from './stream-harness.js'
import { MAX_UNSENT_BYTES } from '../src/http/stream-connection.js'

const attached: ChildProcess[] = []
afterEach(async () => {
  for (const child of attached.splice(0)) child.kill('SIGTERM')
  await cleanup()
})

/** `ferry attach --json` in a child process, collecting the events it prints. */
function attachJson(daemon: Daemon, extra: string[] = []): { events: TranscriptEvent[] } {
  const child = spawn(
    process.execPath,
    [ferryBin, '--state-dir', daemon.stateDir, 'attach', '--json', ...extra],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  )
  attached.push(child)
  const events: TranscriptEvent[] = []
  createInterface({ input: child.stdout }).on('line', (line) =>
    events.push(JSON.parse(line) as TranscriptEvent),
  )
  return { events }
}

const json = { 'content-type': 'application/json' }

async function apiCall(daemon: Daemon, body: Record<string, unknown>) {
  return daemon.api('/call', { method: 'POST', headers: json, body: JSON.stringify(body) })
}

describe('the session stream', () => {
  it('cancels the calls a WebSocket client started when it closes', async () => {
    const daemon = await startInProcess({ mcpServers: { fx: fixture([]) } })
    await daemon.waitForStatus('fx', 'ready')
    const tab = await openStream(daemon)
    tab.send({
      type: 'call',
      ref: 'long',
      id: 'left-behind',
      tool: 'mcp_fx_slow',
      arguments: { steps: 1000, delayMs: 50 },
    })
    await daemon.waitForEvent(
      (event) => event.type === 'call.progress' && event.callId === 'left-behind',
    )
    tab.ws.close()
    expect(
      await daemon.waitForEvent(
        (event) =>
          (event.type === 'call.cancelled' || event.type === 'call.result') &&
          event.callId === 'left-behind',
      ),
    ).toMatchObject({ type: 'call.cancelled' })
  })

  it('shows two attached terminals and a WebSocket client the same events for 100 calls', async () => {
    const daemon = await startInProcess({ mcpServers: { fx: fixture([]) } })
    await daemon.waitForStatus('fx', 'ready')
    const one = attachJson(daemon)
    const two = attachJson(daemon)
    const ws = await openStream(daemon)
    ws.send({ type: 'subscribe' })
    await waitFor(
      () => (one.events.length > 0 && two.events.length > 0 ? true : undefined),
      10_000,
      'attach',
    )
    // Both terminals replay the session from its first event.
    expect([one.events[0]?.seq, two.events[0]?.seq]).toEqual([1, 1])
    for (let batch = 0; batch < 10; batch++) {
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          apiCall(daemon, {
            tool: 'mcp_fx_slow',
            arguments: { steps: 1, delayMs: 1 + i },
            client: { kind: 'cli', label: 'third terminal' },
          }),
        ),
      )
    }
    const results = () => ws.events.filter((e) => e.type === 'call.result').length
    await waitFor(() => results() >= 100, 20_000, '100 results on the WebSocket')
    const last = ws.events[ws.events.length - 1]?.seq as number
    await waitFor(
      () => (one.events.at(-1)?.seq === last && two.events.at(-1)?.seq === last ? true : undefined),
      20_000,
      'both terminals to catch up',
    )
    expect(one.events).toEqual(ws.events)
    expect(two.events).toEqual(ws.events)
    expect(ws.events.map((e) => e.seq)).toEqual(ws.events.map((_, i) => i + 1))
    ws.ws.close()
  })

  it('keeps an attached terminal following across a daemon restart, each event once', async () => {
    const settings = { mcpServers: { fx: fixture([]) } }
    const first = await startInProcess(settings)
    await first.waitForStatus('fx', 'ready')
    const terminal = attachJson(first)
    await apiCall(first, { tool: 'mcp_fx_echo', arguments: { text: 'before' } })
    await waitFor(() => terminal.events.some((e) => e.type === 'call.result') || undefined, 10_000)
    await first.stop()
    const second = await startInProcess(settings, { stateDir: first.stateDir })
    await second.waitForStatus('fx', 'ready')
    await apiCall(second, { tool: 'mcp_fx_echo', arguments: { text: 'after' } })
    await waitFor(
      () => terminal.events.filter((e) => e.type === 'call.result').length >= 2 || undefined,
      15_000,
      'the terminal to resume',
    )
    const seqs = terminal.events.map((e) => e.seq)
    expect(seqs).toEqual(seqs.map((_, i) => i + 1))
  })

  it('resumes a client that disconnected at seq N with exactly N+1… once each', async () => {
    const daemon = await startInProcess({ mcpServers: { fx: fixture([]) } })
    await daemon.waitForStatus('fx', 'ready')
    for (let i = 0; i < 5; i++)
      await apiCall(daemon, { tool: 'mcp_fx_echo', arguments: { text: `a${i}` } })
    const first = await openStream(daemon)
    first.send({ type: 'subscribe' })
    await waitFor(
      () => first.events.filter((e) => e.type === 'call.result').length >= 5 || undefined,
    )
    const n = first.events.at(-1)?.seq as number
    first.ws.close()
    await first.closed
    for (let i = 0; i < 5; i++)
      await apiCall(daemon, { tool: 'mcp_fx_echo', arguments: { text: `b${i}` } })
    const second = await openStream(daemon)
    second.send({ type: 'subscribe', afterSeq: n })
    await waitFor(
      () => second.events.filter((e) => e.type === 'call.result').length >= 5 || undefined,
    )
    // A barrier: one more call, whose events come after any duplicate the replay could send.
    await apiCall(daemon, { tool: 'mcp_fx_echo', arguments: { text: 'barrier' } })
    await waitFor(
      () => second.events.filter((e) => e.type === 'call.result').length >= 6 || undefined,
    )
    const seqs = second.events.map((e) => e.seq)
    expect(seqs[0]).toBe(n + 1)
    expect(seqs).toEqual(seqs.map((_, i) => n + 1 + i))
    second.ws.close()
  })

  it('lets a confirmation answered over the stream resolve everywhere, and refuses a second answer', async () => {
    const daemon = await startInProcess({ mcpServers: { fx: fixture([], { trust: false }) } })
    await daemon.waitForStatus('fx', 'ready')
    const terminal = await openStream(daemon)
    terminal.send({ type: 'hello', client: { kind: 'attach', label: 'terminal one' } })
    terminal.send({ type: 'subscribe' })
    const watcher = attachJson(daemon)
    await waitFor(() => terminal.messages.some((m) => m.type === 'subscribed') || undefined)
    const call = daemon.cli(['call', 'mcp_fx_slow', '{"steps":1,"delayMs":1}'])
    const asked = await waitFor(
      () => terminal.events.find((e) => e.type === 'confirmation.requested'),
      10_000,
      'the question',
    )
    const callId = (asked as Extract<TranscriptEvent, { type: 'confirmation.requested' }>).callId
    terminal.send({ type: 'answer', ref: 'a1', callId, outcome: 'allow_once' })
    expect((await terminal.reply('a1')).ok).toBe(true)
    terminal.send({ type: 'answer', ref: 'a2', callId, outcome: 'deny' })
    const second = await terminal.reply('a2')
    expect(second).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: 'already resolved by terminal one: allow once' },
    })
    expect(await call).toMatchObject({ code: 0, stdout: 'done\n' })
    await waitFor(
      () => watcher.events.find((e) => e.type === 'confirmation.resolved'),
      10_000,
      'the watcher to see the answer',
    )
    expect(watcher.events.find((e) => e.type === 'confirmation.resolved')).toMatchObject({
      outcome: 'allow_once',
      client: { label: 'terminal one' },
    })
    terminal.ws.close()
  })

  it('ends a waiting confirmation when the last client that could answer it detaches', async () => {
    const daemon = await startInProcess({ mcpServers: { fx: fixture([], { trust: false }) } })
    await daemon.waitForStatus('fx', 'ready')
    const answerer = await openStream(daemon)
    answerer.send({ type: 'subscribe' })
    await waitFor(() => answerer.messages.some((m) => m.type === 'subscribed') || undefined)
    const call = daemon.cli(['call', 'mcp_fx_slow', '{"steps":1,"delayMs":1}'])
    await waitFor(
      () => answerer.events.find((e) => e.type === 'confirmation.requested'),
      10_000,
      'the question',
    )
    answerer.ws.close()
    const result = await call
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('the last client that could give it detached')
  })

  it('does not count a line-printing attach as someone who can answer a confirmation', async () => {
    const daemon = await startInProcess({ mcpServers: { fx: fixture([], { trust: false }) } })
    await daemon.waitForStatus('fx', 'ready')
    const printer = attachJson(daemon)
    await waitFor(() => printer.events.length > 0 || undefined, 10_000, 'the attach to start')
    const refused = await daemon.cli(['call', 'mcp_fx_slow', '{"steps":1,"delayMs":1}'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('needs a confirmation')
  })

  it('drops a subscriber that never reads without slowing the others, and keeps memory bounded', async () => {
    const daemon = await startDaemon({ mcpServers: { fx: fixture([]) } })
    await daemon.waitForStatus('fx', 'ready')
    const stalled = await openStream(daemon)
    stalled.send({ type: 'subscribe' })
    await waitFor(() => stalled.messages.some((m) => m.type === 'subscribed') || undefined)
    // Stop reading: the socket's receive buffer fills and the daemon's send buffer grows.
    ;(stalled.ws as unknown as { _socket: { pause(): void } })._socket.pause()
    const healthy = await openStream(daemon)
    healthy.send({ type: 'subscribe' })
    const big = 'x'.repeat(200_000)
    const dropped = async () =>
      (await readJsonLines(`${daemon.stateDir}/daemon.log`)).some(
        (l) => l.kind === 'stream.dropped_slow_client',
      )
    const results = () => healthy.events.filter((e) => e.type === 'call.result').length
    // Batches of calls until the daemon gives up on the stalled client: each call sends it about
    // 400 KB, which its unsent buffer and the kernel's socket buffers take until the bound is
    // passed. After each batch the healthy subscriber has every result so far, so the stalled one
    // never held it back.
    let calls = 0
    while (!(await dropped())) {
      expect(calls, 'calls made before the slow client was dropped').toBeLessThan(400)
      await Promise.all(
        Array.from({ length: 10 }, () =>
          apiCall(daemon, { tool: 'mcp_fx_echo', arguments: { text: big } }),
        ),
      )
      calls += 10
      await waitFor(() => results() >= calls || undefined, 10_000, `${calls} results`)
    }
    expect(calls * 400_000).toBeGreaterThan(MAX_UNSENT_BYTES)
    const status = await readFile(`/proc/${daemon.info.pid}/status`, 'utf8')
    const rssMb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024
    expect(rssMb).toBeLessThan(400)
    healthy.ws.close()
    stalled.ws.terminate()
  })
})

describe('stream security', () => {
  const refusal = (daemon: Daemon, protocols: string[], headers: Record<string, string> = {}) =>
    new Promise<number>((resolve) => {
      const ws = new WebSocket(streamUrl(daemon), protocols, { headers })
      ws.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0))
      ws.on('open', () => {
        ws.close()
        resolve(101)
      })
      ws.on('error', () => {})
    })

  it('checks token, Host and Origin on the upgrade and never echoes the token', async () => {
    const daemon = await startInProcess({ mcpServers: {} })
    const token = daemon.info.token
    expect(await refusal(daemon, ['ferry.v1'])).toBe(401)
    expect(await refusal(daemon, ['ferry.v1', 'ferry.auth.wrong'])).toBe(401)
    expect(
      await refusal(daemon, ['ferry.v1', `ferry.auth.${token}`], {
        host: `evil.example:${daemon.info.port}`,
      }),
    ).toBe(403)
    expect(
      await refusal(daemon, ['ferry.v1', `ferry.auth.${token}`], { origin: 'http://evil.example' }),
    ).toBe(403)
    expect(await refusal(daemon, ['ferry.v1', `ferry.auth.${token}`], { origin: 'null' })).toBe(403)
    const ok = await openStream(daemon, {
      headers: { origin: `http://127.0.0.1:${daemon.info.port}` },
    })
    expect(ok.ws.protocol).toBe('ferry.v1')
    ok.ws.close()
  })

  it('closes client streams with a reason when the daemon shuts down', async () => {
    const daemon = await startDaemon({ mcpServers: {} })
    const stream = await openStream(daemon)
    stream.send({ type: 'subscribe' })
    await waitFor(() => stream.messages.some((m) => m.type === 'subscribed') || undefined)
    daemon.process.kill('SIGTERM')
    expect(await stream.closed).toEqual({ code: 4001, reason: 'daemon shutting down' })
  })

  it('closes the socket with 1009 on a frame over 1 MiB and answers bad messages with an error', async () => {
    const daemon = await startInProcess({ mcpServers: {} })
    const stream = await openStream(daemon)
    stream.ws.send('not json')
    await waitFor(
      () => stream.messages.find((m) => m.type === 'error'),
      undefined,
      'an error message',
    )
    stream.ws.send('x'.repeat(1024 * 1024 + 10))
    expect((await stream.closed).code).toBe(1009)
  })
})
