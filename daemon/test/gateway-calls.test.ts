// Calls through the gateway's `/mcp`, end to end: real SDK clients of both eras (and the 1.x SDK)
// list and call the tools of a stdio and a Streamable HTTP server, wait for the person's
// confirmation, and hear progress.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGatewayToken, resultText } from './gateway-harness.js'
import { AGENT, startGatewayRig, TAB_LABEL, type GatewayRig } from './gateway-rig.js'
import { waitFor } from './harness.js'

let rig: GatewayRig
/** Heartbeats four times within a client's timeout, as the daemon's 1 s does within 4 s. */
const WAITING_PROGRESS_MS = 250
const CLIENT_TIMEOUT_MS = 1_000
const CONFIRMATION_WAIT_MS = 1_500

beforeAll(async () => {
  rig = await startGatewayRig({ waitingProgressMs: WAITING_PROGRESS_MS })
})
afterAll(() => rig?.close())

describe('legacy and modern clients on one /mcp', () => {
  it('list and call the tools of a stdio and a Streamable HTTP server at the same time, sessions only in the legacy era', async () => {
    const [legacy, v1, modern] = await Promise.all([
      rig.connect('legacy'),
      rig.connect('v1'),
      rig.connect('auto'),
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
    const calls = (await rig.daemon.events()).filter(
      (event) => event.type === 'call.requested' && event.tool.endsWith('_echo'),
    )
    expect(calls).toHaveLength(6)
    for (const call of calls) expect(call.client).toEqual(AGENT)
  })
})

describe('confirmations of gateway calls', () => {
  for (const flavour of ['legacy', 'auto'] as const) {
    it(`asks the person before a ${flavour} client's call of a tool that is not read-only, as the client, and answers it once allowed`, async () => {
      const client = await rig.connect(flavour)
      const requested = rig.nextEvent('confirmation.requested', (e) => e.tool === 'mcp_local_slow')
      const call = client.callTool('mcp_local_slow', { steps: 1, delayMs: 0 })
      const asked = await requested
      expect(asked.client).toEqual(AGENT)
      const events = await rig.daemon.events()
      expect(
        events.find((e) => e.type === 'call.requested' && e.callId === asked.callId),
      ).toMatchObject({ client: AGENT, arguments: { steps: 1, delayMs: 0 } })
      expect(await rig.answer(asked.callId, 'allow_once')).toMatchObject({ ok: true })
      const result = await call
      expect(result.isError ?? false).toBe(false)
      expect(resultText(result)).toBe('done')
    })
  }

  it('answers a denied call with an error result naming who denied it, and the server never sees it', async () => {
    const client = await rig.connect('auto')
    const before = await rig.recorded('tools/call', 'slow')
    const requested = rig.nextEvent('confirmation.requested', (e) => e.tool === 'mcp_local_slow')
    const call = client.callTool('mcp_local_slow', { steps: 1, delayMs: 0 })
    expect(await rig.answer((await requested).callId, 'deny')).toMatchObject({ ok: true })
    const result = await call
    expect(result.isError).toBe(true)
    expect(resultText(result)).toBe(
      `mcp_local_slow was denied in Ferry by ${TAB_LABEL}; it was not called`,
    )
    // The server answers in order: once this call came back, a denied one would be recorded.
    expect(resultText(await client.callTool('mcp_local_echo', { text: 'barrier' }))).toBe('barrier')
    expect(await rig.recorded('tools/call', 'echo')).toBeGreaterThan(0)
    expect(await rig.recorded('tools/call', 'slow')).toBe(before)
  })

  it('ends a call at once, saying how to answer, when nobody who could answer is attached', async () => {
    const created = await rig.daemon.api('/sessions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'unwatched' }),
    })
    const session = ((await created.json()) as { id: string }).id
    const client = await rig.connect(
      'legacy',
      await createGatewayToken(rig.daemon, 'alone', { session }),
    )
    // Ferry answers at once; a call left waiting fails here instead of hanging the test.
    const result = await client.callTool('mcp_local_slow', { steps: 1 }, { timeout: 10_000 })
    expect(result.isError).toBe(true)
    const text = resultText(result)
    expect(text).toContain('mcp_local_slow needs the person')
    expect(text).toContain('`ferry open`')
    expect(text).toContain('`ferry attach`')
    expect(text).toContain(`${rig.daemon.info.url}`)
    expect(text).not.toContain(rig.daemon.info.token)
    const events = await rig.daemon.events(session)
    const requested = events.find((e) => e.type === 'call.requested')
    expect(requested?.client).toMatchObject({ kind: 'mcp', label: 'alone (gateway)' })
    expect(events.find((e) => e.type === 'call.failed')).toMatchObject({
      error: { code: 'confirmation_unavailable' },
    })
    expect(events.some((e) => e.type === 'confirmation.requested')).toBe(false)
  })
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
      const client = await rig.connect(flavour)
      const seen: Progress[] = []
      const requested = rig.nextEvent('confirmation.requested', (e) => e.tool === 'mcp_local_slow')
      const call = client.callTool(
        'mcp_local_slow',
        { steps: 3, delayMs: 20 },
        { onprogress: (p) => seen.push(p) },
      )
      const { callId } = await requested
      await waitFor(() => seen.length > 0, 10_000, 'a waiting heartbeat')
      await rig.answer(callId, 'allow_once')
      expect(resultText(await call)).toBe('done')
      expect(seen[0]).toMatchObject({ message: 'waiting for confirmation in Ferry' })
      expect(seen.slice(-3).map((p) => p.message)).toEqual(['step 1/3', 'step 2/3', 'step 3/3'])
      expect(seen.at(-1)?.progress).toBe(seen.at(-1)?.total)
      expectWellFormed(seen)
    })
  }

  it('keeps clients whose timeout is shorter than the wait, reset on progress, waiting through a confirmation', async () => {
    const waiting = await Promise.all(
      (['legacy', 'auto', 'v1'] as const).map(async (flavour, delayMs) => {
        const client = await rig.connect(flavour)
        const seen: Progress[] = []
        const requested = rig.nextEvent(
          'call.requested',
          (e) => e.tool === 'mcp_local_slow' && e.arguments.delayMs === delayMs,
        )
        const started = Date.now()
        const call = client.callTool(
          'mcp_local_slow',
          { steps: 1, delayMs },
          {
            timeout: CLIENT_TIMEOUT_MS,
            resetTimeoutOnProgress: true,
            onprogress: (p) => seen.push(p),
          },
        )
        const { callId } = await requested
        await rig.eventOf('confirmation.requested', callId)
        return { flavour, seen, call, started, callId }
      }),
    )
    // The point of this test is a wait longer than the clients' timeout.
    await new Promise((resolve) => setTimeout(resolve, CONFIRMATION_WAIT_MS))
    for (const { callId } of waiting) await rig.answer(callId, 'allow_once')
    for (const { flavour, seen, call, started } of waiting) {
      const result = await call
      expect(resultText(result), flavour).toBe('done')
      expect(Date.now() - started).toBeGreaterThan(CONFIRMATION_WAIT_MS)
      // Only heartbeats kept the client from timing out: the first, and at least one after it.
      const heartbeats = seen.filter((p) => p.message === 'waiting for confirmation in Ferry')
      expect(heartbeats.length, flavour).toBeGreaterThanOrEqual(2)
      expectWellFormed(seen)
    }
  })
})
