// Calls through the gateway's `/mcp`, end to end: real SDK clients of both eras (and the 1.x SDK)
// against one daemon serving a stdio and a Streamable HTTP fixture, with a WebSocket client in the
// role of the person's WebShell tab answering confirmations.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CallToolResult } from '@modelcontextprotocol/client'
import type { TranscriptEvent } from '../src/protocol/index.js'
import {
  connectGateway,
  createGatewayToken,
  gatewayUrl,
  resultText,
  startHttpFixture,
  type ClientFlavour,
  type GatewayClient,
} from './gateway-harness.js'
import {
  cleanup,
  fixture,
  httpServerPath,
  readJsonLines,
  startDaemon,
  tempDir,
  waitFor,
  type TestDaemon,
} from './harness.js'
import { openStream, type TestStream } from './stream-harness.js'

const TAB_LABEL = 'the tab'
const AGENT = { id: 'mcp:agent', kind: 'mcp', label: 'agent (gateway)' }

let daemon: TestDaemon
let record: string
let tab: TestStream
let token: string
let stopHttp: () => void
const clients: GatewayClient[] = []

beforeAll(async () => {
  record = `${await tempDir()}/record.jsonl`
  const http = await startHttpFixture(httpServerPath)
  stopHttp = http.stop
  daemon = await startDaemon({
    mcpServers: {
      local: fixture(['--record', record], { trust: false }),
      remote: { url: http.url },
    },
  })
  await Promise.all([
    daemon.waitForStatus('local', 'ready'),
    daemon.waitForStatus('remote', 'ready'),
  ])
  token = await createGatewayToken(daemon, 'agent')
  tab = await openStream(daemon)
  tab.send({ type: 'hello', client: { kind: 'webshell', label: TAB_LABEL } })
  tab.send({ type: 'subscribe' })
  await waitFor(() => tab.messages.find((m) => m.type === 'subscribed'), 10_000, 'subscribed')
})

afterAll(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})))
  tab?.ws.close()
  stopHttp?.()
  await cleanup()
})

async function connect(flavour: ClientFlavour, as = token): Promise<GatewayClient> {
  const client = await connectGateway(daemon, as, flavour)
  clients.push(client)
  return client
}

/** The first event the tab receives from now on that `match` accepts. */
function nextEvent<T extends TranscriptEvent['type']>(
  type: T,
  match: (event: Extract<TranscriptEvent, { type: T }>) => boolean = () => true,
): Promise<Extract<TranscriptEvent, { type: T }>> {
  const from = tab.events.length
  return waitFor(
    () =>
      tab.events
        .slice(from)
        .find(
          (event): event is Extract<TranscriptEvent, { type: T }> =>
            event.type === type && match(event as Extract<TranscriptEvent, { type: T }>),
        ),
    20_000,
    `a ${type} event`,
  )
}

/** The tab's answer to a call's confirmation, as the daemon replied to it. */
async function answer(callId: string, outcome: 'allow_once' | 'deny') {
  const ref = `answer-${callId}-${tab.messages.length}`
  tab.send({ type: 'answer', ref, callId, outcome })
  return tab.reply(ref)
}

/** The event of `type` for call `callId`, once the tab has it. */
function eventOf<T extends TranscriptEvent['type']>(
  type: T,
  callId: string,
): Promise<Extract<TranscriptEvent, { type: T }>> {
  return waitFor(
    () =>
      tab.events.find(
        (event): event is Extract<TranscriptEvent, { type: T }> =>
          event.type === type && 'callId' in event && event.callId === callId,
      ),
    20_000,
    `${type} of call ${callId}`,
  )
}

async function recorded(method: string, name: string): Promise<number> {
  const entries = await readJsonLines<{ method: string; name?: string }>(record)
  return entries.filter((entry) => entry.method === method && entry.name === name).length
}

describe('legacy and modern clients on one /mcp', () => {
  it('list and call the tools of a stdio and a Streamable HTTP server at the same time, sessions only in the legacy era', async () => {
    const [legacy, v1, modern] = await Promise.all([
      connect('legacy'),
      connect('v1'),
      connect('auto'),
    ])
    expect([legacy.era, v1.era, modern.era]).toEqual(['legacy', 'legacy', 'modern'])
    await Promise.all(
      [legacy, v1, modern].map(async (client) => {
        const names = (await client.listTools()).map((tool) => tool.name)
        expect(names).toEqual(expect.arrayContaining(['mcp_local_echo', 'mcp_remote_echo']))
        for (const tool of ['mcp_local_echo', 'mcp_remote_echo']) {
          const text = `${client.flavour} to ${tool}`
          expect(resultText(await client.callTool(tool, { text }))).toBe(text)
        }
      }),
    )
    for (const client of [legacy, v1]) {
      const [open, ...rest] = client.requests
      expect(open).toMatchObject({ method: 'POST', rpc: ['initialize'], sessionId: null })
      expect(rest.length).toBeGreaterThan(2)
      for (const request of rest) expect(request.sessionId).toMatch(/^[0-9a-f-]{36}$/)
      expect(new Set(rest.map((request) => request.sessionId)).size).toBe(1)
      expect(rest.flatMap((request) => request.rpc)).toEqual(
        expect.arrayContaining(['tools/list', 'tools/call']),
      )
    }
    expect(modern.requests.flatMap((request) => request.rpc)).toEqual(
      expect.arrayContaining(['server/discover', 'tools/list', 'tools/call']),
    )
    for (const request of modern.requests) {
      expect(request.sessionId).toBeNull()
      expect(request.protocolVersion).toBe('2026-07-28')
    }
    const calls = (await daemon.events()).filter(
      (event) => event.type === 'call.requested' && event.tool.endsWith('_echo'),
    )
    expect(calls).toHaveLength(6)
    for (const call of calls) expect(call.client).toEqual(AGENT)
  })
})

describe('confirmations of gateway calls', () => {
  for (const flavour of ['legacy', 'auto'] as const) {
    it(`asks the person before a ${flavour} client's call of a tool that is not read-only, as the client, and answers it once allowed`, async () => {
      const client = await connect(flavour)
      const requested = nextEvent('confirmation.requested', (e) => e.tool === 'mcp_local_slow')
      const call = client.callTool('mcp_local_slow', { steps: 1, delayMs: 0 })
      const asked = await requested
      expect(asked.client).toEqual(AGENT)
      const events = await daemon.events()
      expect(
        events.find((e) => e.type === 'call.requested' && e.callId === asked.callId),
      ).toMatchObject({ client: AGENT, arguments: { steps: 1, delayMs: 0 } })
      expect(await answer(asked.callId, 'allow_once')).toMatchObject({ ok: true })
      const result = await call
      expect(result.isError ?? false).toBe(false)
      expect(resultText(result)).toBe('done')
    })
  }

  it('answers a denied call with an error result naming who denied it, and the server never sees it', async () => {
    const client = await connect('auto')
    const before = await recorded('tools/call', 'slow')
    const requested = nextEvent('confirmation.requested', (e) => e.tool === 'mcp_local_slow')
    const call = client.callTool('mcp_local_slow', { steps: 1, delayMs: 0 })
    expect(await answer((await requested).callId, 'deny')).toMatchObject({ ok: true })
    const result = await call
    expect(result.isError).toBe(true)
    expect(resultText(result)).toBe(
      `mcp_local_slow was denied in Ferry by ${TAB_LABEL}; it was not called`,
    )
    // The server answers in order: once this call came back, a denied one would be recorded.
    expect(resultText(await client.callTool('mcp_local_echo', { text: 'barrier' }))).toBe('barrier')
    expect(await recorded('tools/call', 'echo')).toBeGreaterThan(0)
    expect(await recorded('tools/call', 'slow')).toBe(before)
  })

  it('ends a call at once, saying how to answer, when nobody who could answer is attached', async () => {
    const created = await daemon.api('/sessions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'unwatched' }),
    })
    const session = ((await created.json()) as { id: string }).id
    const client = await connect('legacy', await createGatewayToken(daemon, 'alone', { session }))
    // Ferry answers at once; a call left waiting fails here instead of hanging the test.
    const result = await client.callTool('mcp_local_slow', { steps: 1 }, { timeout: 10_000 })
    expect(result.isError).toBe(true)
    const text = resultText(result)
    expect(text).toContain('mcp_local_slow needs the person')
    expect(text).toContain('`ferry open`')
    expect(text).toContain('`ferry attach`')
    expect(text).toContain(`${daemon.info.url}`)
    expect(text).not.toContain(daemon.info.token)
    const events = await daemon.events(session)
    const requested = events.find((e) => e.type === 'call.requested')
    expect(requested?.client).toMatchObject({ kind: 'mcp', label: 'alone (gateway)' })
    expect(events.find((e) => e.type === 'call.failed')).toMatchObject({
      error: { code: 'confirmation_unavailable' },
    })
    expect(events.some((e) => e.type === 'confirmation.requested')).toBe(false)
  })
})

/** A legacy session spoken by hand, for message orders an SDK client cannot be made to send. */
async function handMadeSession(bearer: string) {
  const post = (body: unknown, session?: string) =>
    fetch(gatewayUrl(daemon), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${bearer}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(session === undefined
          ? {}
          : { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' }),
      },
      body: JSON.stringify({ jsonrpc: '2.0', ...(body as object) }),
    })
  const opened = await post({
    id: 0,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'by hand', version: '1' },
    },
  })
  const session = opened.headers.get('mcp-session-id') ?? undefined
  expect(session).toBeDefined()
  await opened.text()
  expect((await post({ method: 'notifications/initialized' }, session)).status).toBe(202)
  return {
    notify: async (method: string, params: unknown) =>
      (await post({ method, params }, session)).status,
    /** The result of request `id`, from a JSON or an event-stream answer. */
    request: async (id: number, method: string, params: unknown) => {
      const text = await (await post({ id, method, params }, session)).text()
      const messages = text.startsWith('{')
        ? [text]
        : text.split('\n').flatMap((line) => (line.startsWith('data: ') ? [line.slice(6)] : []))
      const answer = messages
        .map((message) => JSON.parse(message) as { id?: number; result?: CallToolResult })
        .find((message) => message.id === id)
      return answer?.result
    },
  }
}

describe('a gateway client that gives up', () => {
  it('cancels a call whose cancel overtook it on the way to Ferry, before anyone is asked', async () => {
    const session = await handMadeSession(token)
    expect(await session.notify('notifications/cancelled', { requestId: 7, reason: 'stop' })).toBe(
      202,
    )
    const requested = nextEvent('call.requested', (e) => e.arguments.delayMs === 7)
    const asked = nextEvent('confirmation.requested', (e) => e.tool === 'mcp_local_slow')
    asked.catch(() => {})
    const result = await Promise.race([
      session.request(7, 'tools/call', {
        name: 'mcp_local_slow',
        arguments: { steps: 1, delayMs: 7 },
      }),
      asked.then(() => {
        throw new Error('the person was asked about a call its client had cancelled')
      }),
    ])
    expect(result).toMatchObject({ isError: true })
    expect(resultText(result as CallToolResult)).toBe('mcp_local_slow was cancelled')
    const { callId } = await requested
    expect((await eventOf('call.cancelled', callId)).client).toEqual(AGENT)
    const events = await daemon.events()
    expect(events.some((e) => e.type === 'confirmation.requested' && e.callId === callId)).toBe(
      false,
    )
  })

  for (const flavour of ['legacy', 'v1'] as const) {
    it(`cancels the call a ${flavour} client waits on when it ends its session`, async () => {
      const client = await connect(flavour)
      const requested = nextEvent('confirmation.requested', (e) => e.tool === 'mcp_local_slow')
      const call = client.callTool('mcp_local_slow', { steps: 1 })
      call.catch(() => {})
      const { callId } = await requested
      await client.endSession()
      expect((await eventOf('call.cancelled', callId)).client).toEqual(AGENT)
      expect(await answer(callId, 'allow_once')).toMatchObject({ ok: false })
    })
  }

  for (const flavour of ['legacy', 'auto'] as const) {
    it(`leaves nothing waiting when a ${flavour} client cancels its calls right away`, async () => {
      const hasty = await connect(flavour, await createGatewayToken(daemon, `hasty-${flavour}`))
      for (let i = 0; i < 12; i++) {
        const controller = new AbortController()
        const call = hasty.callTool('mcp_local_slow', { steps: 1 }, { signal: controller.signal })
        await new Promise((resolve) => setTimeout(resolve, i))
        controller.abort(new Error('changed my mind'))
        await expect(call).rejects.toThrow()
      }
      const label = `hasty-${flavour} (gateway)`
      const calls = () =>
        tab.events.filter((e) => e.type === 'call.requested' && e.client?.label === label)
      // Every legacy request reaches Ferry (a cancel cannot stop its POST); a modern one aborted
      // before it was served never becomes a call.
      const reached = flavour === 'legacy' ? 12 : 1
      await waitFor(() => calls().length >= reached, 20_000, `${reached} calls to be requested`)
      for (const { callId } of calls() as Array<{ callId: string }>) {
        expect((await eventOf('call.cancelled', callId)).client?.label).toBe(label)
      }
    })
  }

  for (const flavour of ['legacy', 'auto'] as const) {
    it(`withdraws the confirmation a ${flavour} client's call waits for when the client cancels it`, async () => {
      const client = await connect(flavour)
      const controller = new AbortController()
      const requested = nextEvent('confirmation.requested', (e) => e.tool === 'mcp_local_slow')
      const call = client.callTool('mcp_local_slow', { steps: 1 }, { signal: controller.signal })
      const { callId } = await requested
      controller.abort(new Error('the user pressed stop'))
      await expect(call).rejects.toThrow()
      expect((await eventOf('call.cancelled', callId)).client).toEqual(AGENT)
      expect(await answer(callId, 'allow_once')).toMatchObject({
        ok: false,
        error: { message: `no confirmation is pending for call ${callId}` },
      })
      const sent = client.requests.flatMap((request) => request.rpc)
      if (flavour === 'legacy') expect(sent).toContain('notifications/cancelled')
      else expect(sent).not.toContain('notifications/cancelled')
    })

    it(`cancels a running call of a ${flavour} client on its server when the client cancels it`, async () => {
      const client = await connect(flavour)
      const before = await recorded('cancelled', 'slow')
      const controller = new AbortController()
      const requested = nextEvent('confirmation.requested', (e) => e.tool === 'mcp_local_slow')
      const call = client.callTool(
        'mcp_local_slow',
        { steps: 400, delayMs: 50 },
        { signal: controller.signal, onprogress: () => {} },
      )
      const { callId } = await requested
      await answer(callId, 'allow_once')
      await eventOf('call.progress', callId)
      controller.abort(new Error('the user pressed stop'))
      await expect(call).rejects.toThrow()
      expect((await eventOf('call.cancelled', callId)).client).toEqual(AGENT)
      await waitFor(
        async () => (await recorded('cancelled', 'slow')) > before,
        10_000,
        'the server to stop',
      )
    })
  }
})

describe('progress of gateway calls', () => {
  type Progress = { progress: number; total?: number; message?: string }

  /** Progress values only ever grow and never pass their total, as MCP requires. */
  function expectWellFormed(seen: Progress[]): void {
    for (const [i, item] of seen.entries()) {
      if (i > 0) expect(item.progress).toBeGreaterThan((seen[i - 1] as Progress).progress)
      if (item.total !== undefined) expect(item.progress).toBeLessThanOrEqual(item.total)
    }
  }

  for (const flavour of ['legacy', 'auto'] as const) {
    it(`passes the server's progress on to a ${flavour} client after Ferry's own while it waited`, async () => {
      const client = await connect(flavour)
      const seen: Progress[] = []
      const requested = nextEvent('confirmation.requested', (e) => e.tool === 'mcp_local_slow')
      const call = client.callTool(
        'mcp_local_slow',
        { steps: 3, delayMs: 20 },
        { onprogress: (p) => seen.push(p) },
      )
      const { callId } = await requested
      await waitFor(() => seen.length > 0, 10_000, 'a waiting heartbeat')
      await answer(callId, 'allow_once')
      expect(resultText(await call)).toBe('done')
      expect(seen[0]).toMatchObject({ message: 'waiting for confirmation in Ferry' })
      expect(seen.slice(-3).map((p) => p.message)).toEqual(['step 1/3', 'step 2/3', 'step 3/3'])
      expect(seen.at(-1)?.progress).toBe(seen.at(-1)?.total)
      expectWellFormed(seen)
    })
  }

  it('keeps clients whose timeout is 2 s, reset on progress, waiting through a 6 s confirmation', async () => {
    const waiting = await Promise.all(
      (['legacy', 'auto', 'v1'] as const).map(async (flavour, delayMs) => {
        const client = await connect(flavour)
        const seen: Progress[] = []
        const requested = nextEvent(
          'call.requested',
          (e) => e.tool === 'mcp_local_slow' && e.arguments.delayMs === delayMs,
        )
        const started = Date.now()
        const call = client.callTool(
          'mcp_local_slow',
          { steps: 1, delayMs },
          { timeout: 2_000, resetTimeoutOnProgress: true, onprogress: (p) => seen.push(p) },
        )
        const { callId } = await requested
        await eventOf('confirmation.requested', callId)
        return { flavour, seen, call, started, callId }
      }),
    )
    // The point of this test is a wait longer than the clients' timeout.
    await new Promise((resolve) => setTimeout(resolve, 6_000))
    for (const { callId } of waiting) await answer(callId, 'allow_once')
    for (const { flavour, seen, call, started } of waiting) {
      const result = await call
      expect(resultText(result), flavour).toBe('done')
      expect(Date.now() - started).toBeGreaterThan(6_000)
      const heartbeats = seen.filter((p) => p.message === 'waiting for confirmation in Ferry')
      expect(heartbeats.length, flavour).toBeGreaterThanOrEqual(5)
      expectWellFormed(seen)
    }
  })
})

describe('a gateway call cancelled in Ferry', () => {
  it('answers the client with an error result naming who cancelled it while it waited', async () => {
    const client = await connect('legacy')
    const requested = nextEvent('confirmation.requested', (e) => e.tool === 'mcp_local_slow')
    const call = client.callTool('mcp_local_slow', { steps: 1 })
    const { callId } = await requested
    const cancelled = await daemon.api(`/calls/${callId}/cancel`, { method: 'POST' })
    expect(cancelled.status).toBe(200)
    const result = await call
    expect(result.isError).toBe(true)
    expect(resultText(result)).toBe('mcp_local_slow was cancelled in Ferry by REST API')
    expect((await eventOf('call.cancelled', callId)).client).toMatchObject({ label: 'REST API' })
  })

  it('answers the client with an error result naming who cancelled it while it ran, and stops it on its server', async () => {
    const client = await connect('auto')
    const before = await recorded('cancelled', 'slow')
    const requested = nextEvent('confirmation.requested', (e) => e.tool === 'mcp_local_slow')
    const call = client.callTool('mcp_local_slow', { steps: 400, delayMs: 50 })
    const { callId } = await requested
    await answer(callId, 'allow_once')
    await eventOf('call.progress', callId)
    const ref = `cancel-${callId}`
    tab.send({ type: 'cancel', ref, callId })
    expect(await tab.reply(ref)).toMatchObject({ ok: true })
    const result = await call
    expect(result.isError).toBe(true)
    expect(resultText(result)).toBe(`mcp_local_slow was cancelled in Ferry by ${TAB_LABEL}`)
    await waitFor(
      async () => (await recorded('cancelled', 'slow')) > before,
      10_000,
      'the server to stop',
    )
  })
})
