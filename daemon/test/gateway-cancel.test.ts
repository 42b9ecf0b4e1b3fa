// Cancelling gateway calls, end to end: a client that gives up (legacy `notifications/cancelled`,
// a modern aborted POST, an ended session) withdraws the confirmation or stops the server, and a
// call cancelled in Ferry answers its client saying who cancelled it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CallToolResult } from '@modelcontextprotocol/client'
import { createGatewayToken, gatewayUrl, resultText } from './gateway-harness.js'
import { AGENT, startGatewayRig, TAB_LABEL, type GatewayRig } from './gateway-rig.js'
import { waitFor } from './harness.js'
import { sseMessages } from './sse.js'

let rig: GatewayRig
beforeAll(async () => {
  rig = await startGatewayRig()
})
afterAll(() => rig?.close())

/** A legacy session spoken by hand, for message orders an SDK client cannot be made to send. */
async function handMadeSession(bearer: string) {
  const post = (body: unknown, session?: string) =>
    fetch(gatewayUrl(rig.daemon), {
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
      const answer = sseMessages(text).find((message) => message.id === id)
      return answer?.result as CallToolResult | undefined
    },
  }
}

describe('a gateway client that gives up', () => {
  it('cancels a call whose cancel overtook it on the way to Ferry, before anyone is asked', async () => {
    const session = await handMadeSession(rig.token)
    expect(await session.notify('notifications/cancelled', { requestId: 7, reason: 'stop' })).toBe(
      202,
    )
    const requested = rig.nextEvent('call.requested', (e) => e.arguments.delayMs === 7)
    const asked = rig.nextEvent('confirmation.requested', (e) => e.tool === 'mcp_local_slow')
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
    expect((await rig.eventOf('call.cancelled', callId)).client).toEqual(AGENT)
    const events = await rig.daemon.events()
    expect(events.some((e) => e.type === 'confirmation.requested' && e.callId === callId)).toBe(
      false,
    )
  })

  for (const flavour of ['legacy', 'v1'] as const) {
    it(`cancels the call a ${flavour} client waits on when it ends its session`, async () => {
      const client = await rig.connect(flavour)
      const requested = rig.nextEvent('confirmation.requested', (e) => e.tool === 'mcp_local_slow')
      const call = client.callTool('mcp_local_slow', { steps: 1 })
      call.catch(() => {})
      const { callId } = await requested
      await client.endSession()
      expect((await rig.eventOf('call.cancelled', callId)).client).toEqual(AGENT)
      expect(await rig.answer(callId, 'allow_once')).toMatchObject({ ok: false })
    })
  }

  for (const flavour of ['legacy', 'auto'] as const) {
    it(`leaves nothing waiting when a ${flavour} client cancels its calls right away`, async () => {
      const hasty = await rig.connect(
        flavour,
        await createGatewayToken(rig.daemon, `hasty-${flavour}`),
      )
      for (let i = 0; i < 12; i++) {
        const controller = new AbortController()
        const call = hasty.callTool('mcp_local_slow', { steps: 1 }, { signal: controller.signal })
        await new Promise((resolve) => setTimeout(resolve, i))
        controller.abort(new Error('changed my mind'))
        await expect(call).rejects.toThrow()
      }
      const label = `hasty-${flavour} (gateway)`
      const calls = () =>
        rig.tab.events.filter((e) => e.type === 'call.requested' && e.client?.label === label)
      // Every legacy request reaches Ferry (a cancel cannot stop its POST); a modern one aborted
      // before it was served never becomes a call.
      const reached = flavour === 'legacy' ? 12 : 1
      await waitFor(() => calls().length >= reached, 20_000, `${reached} calls to be requested`)
      for (const { callId } of calls() as Array<{ callId: string }>) {
        expect((await rig.eventOf('call.cancelled', callId)).client?.label).toBe(label)
      }
    })
  }

  for (const flavour of ['legacy', 'auto'] as const) {
    it(`withdraws the confirmation a ${flavour} client's call waits for when the client cancels it`, async () => {
      const client = await rig.connect(flavour)
      const controller = new AbortController()
      const requested = rig.nextEvent('confirmation.requested', (e) => e.tool === 'mcp_local_slow')
      const call = client.callTool('mcp_local_slow', { steps: 1 }, { signal: controller.signal })
      const { callId } = await requested
      controller.abort(new Error('the user pressed stop'))
      await expect(call).rejects.toThrow()
      expect((await rig.eventOf('call.cancelled', callId)).client).toEqual(AGENT)
      expect(await rig.answer(callId, 'allow_once')).toMatchObject({
        ok: false,
        error: { message: `no confirmation is pending for call ${callId}` },
      })
      const sent = client.requests.flatMap((request) => request.rpc)
      if (flavour === 'legacy') expect(sent).toContain('notifications/cancelled')
      else expect(sent).not.toContain('notifications/cancelled')
    })

    it(`cancels a running call of a ${flavour} client on its server when the client cancels it`, async () => {
      const client = await rig.connect(flavour)
      const before = await rig.recorded('cancelled', 'slow')
      const controller = new AbortController()
      const requested = rig.nextEvent('confirmation.requested', (e) => e.tool === 'mcp_local_slow')
      const call = client.callTool(
        'mcp_local_slow',
        { steps: 400, delayMs: 50 },
        { signal: controller.signal, onprogress: () => {} },
      )
      const { callId } = await requested
      await rig.answer(callId, 'allow_once')
      await rig.eventOf('call.progress', callId)
      controller.abort(new Error('the user pressed stop'))
      await expect(call).rejects.toThrow()
      expect((await rig.eventOf('call.cancelled', callId)).client).toEqual(AGENT)
      await waitFor(
        async () => (await rig.recorded('cancelled', 'slow')) > before,
        10_000,
        'the server to stop',
      )
    })
  }
})

describe('a gateway call cancelled in Ferry', () => {
  it('answers the client with an error result naming who cancelled it while it waited', async () => {
    const client = await rig.connect('legacy')
    const requested = rig.nextEvent('confirmation.requested', (e) => e.tool === 'mcp_local_slow')
    const call = client.callTool('mcp_local_slow', { steps: 1 })
    const { callId } = await requested
    const cancelled = await rig.daemon.api(`/calls/${callId}/cancel`, { method: 'POST' })
    expect(cancelled.status).toBe(200)
    const result = await call
    expect(result.isError).toBe(true)
    expect(resultText(result)).toBe('mcp_local_slow was cancelled in Ferry by REST API')
    expect((await rig.eventOf('call.cancelled', callId)).client).toMatchObject({
      label: 'REST API',
    })
  })

  it('answers the client with an error result naming who cancelled it while it ran, and stops it on its server', async () => {
    const client = await rig.connect('auto')
    const before = await rig.recorded('cancelled', 'slow')
    const requested = rig.nextEvent('confirmation.requested', (e) => e.tool === 'mcp_local_slow')
    const call = client.callTool('mcp_local_slow', { steps: 400, delayMs: 50 })
    const { callId } = await requested
    await rig.answer(callId, 'allow_once')
    await rig.eventOf('call.progress', callId)
    const ref = `cancel-${callId}`
    rig.tab.send({ type: 'cancel', ref, callId })
    expect(await rig.tab.reply(ref)).toMatchObject({ ok: true })
    const result = await call
    expect(result.isError).toBe(true)
    expect(resultText(result)).toBe(`mcp_local_slow was cancelled in Ferry by ${TAB_LABEL}`)
    await waitFor(
      async () => (await rig.recorded('cancelled', 'slow')) > before,
      10_000,
      'the server to stop',
    )
  })
})
