import { Client, ProtocolError, type ElicitResult } from '@modelcontextprotocol/client'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TranscriptEvent } from '../src/protocol/index.js'
import { cleanup, fixture, waitFor, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'
import { elicitingClient, type ElicitParams } from './gateway-harness.js'
import { openStream } from './stream-harness.js'

const REASON_KEY = 'ferry/reason'
const NOBODY =
  'nobody attached to Ferry can answer it: open the WebShell (`ferry open`) or attach a terminal (`ferry attach`), then call again'

async function token(daemon: Daemon, name: string, flags: string[] = []): Promise<string> {
  const created = await daemon.cli(['gateway', 'token', 'create', name, ...flags])
  expect(created.stderr).toContain('Gateway token')
  return created.stdout.trim()
}

/** An SDK v2 gateway client; with `answer` it declares form elicitation and answers with it. */
const gatewayClient = elicitingClient

/** What the fixture's `ask_user` says it received, one entry per question. */
function answersOf(result: unknown): Array<Record<string, unknown>> {
  const structured = (result as { structuredContent?: { answers?: unknown } }).structuredContent
  return (structured?.answers ?? []) as Array<Record<string, unknown>>
}

function callsOf(events: TranscriptEvent[], tool: string) {
  return events.filter(
    (e): e is Extract<TranscriptEvent, { type: 'call.requested' }> =>
      e.type === 'call.requested' && e.tool === tool,
  )
}

describe('upstream elicitation through the gateway', () => {
  let daemon: Daemon
  let secret: string

  beforeAll(async () => {
    daemon = await startInProcess({
      mcpServers: {
        old: fixture(['--elicit-tool', '--era', 'legacy'], { versionNegotiation: 'legacy' }),
        new: fixture(['--elicit-tool', '--era', 'modern'], { versionNegotiation: 'auto' }),
      },
    })
    expect(await daemon.waitForStatus('old', 'ready')).toMatchObject({ era: 'legacy' })
    expect(await daemon.waitForStatus('new', 'ready')).toMatchObject({ era: 'modern' })
    secret = await token(daemon, 'agent')
  })
  afterAll(cleanup)

  for (const clientEra of ['legacy', 'modern'] as const) {
    for (const server of ['old', 'new'] as const) {
      it(`forwards a ${server === 'old' ? 'legacy' : '2026-07-28'} server's questions to a ${clientEra} client that declared elicitation, as one call`, async () => {
        const asked: string[] = []
        const client = await gatewayClient(daemon, secret, clientEra, async (params) => {
          asked.push(params.message)
          return { action: 'accept', content: { name: `Ada ${asked.length}` } }
        })
        const tool = `mcp_${server}_ask_user`
        const before = callsOf(await daemon.events(), tool).length
        const result = await client.callTool({ name: tool, arguments: { rounds: 2 } })
        expect(asked).toEqual([
          'What is your name? (question 1)',
          'What is your name? (question 2)',
        ])
        expect(answersOf(result)).toEqual([
          { action: 'accept', content: { name: 'Ada 1' } },
          { action: 'accept', content: { name: 'Ada 2' } },
        ])
        const events = await daemon.events()
        const calls = callsOf(events, tool).slice(before)
        expect(calls).toHaveLength(1)
        expect(calls[0]?.client?.label).toBe('agent (gateway)')
        const callId = calls[0]?.callId
        expect(events.filter((e) => e.type === 'call.result' && e.callId === callId)).toHaveLength(
          1,
        )
        await client.close()
      })
    }

    it(`declines a server's question for a ${clientEra} client that did not declare elicitation when nobody in Ferry can answer, saying why`, async () => {
      const client = await gatewayClient(daemon, secret, clientEra)
      for (const server of ['old', 'new']) {
        const result = await client.callTool({ name: `mcp_${server}_ask_user`, arguments: {} })
        expect(answersOf(result)).toEqual([
          {
            action: 'decline',
            _meta: {
              [REASON_KEY]: `agent (gateway) did not declare elicitation (form), and ${NOBODY}`,
            },
          },
        ])
      }
      await client.close()
    })
  }

  it('does not ask the client a legacy server question when two calls run on its connection, since it cannot tell which asked', async () => {
    let asked = 0
    const client = await gatewayClient(daemon, secret, 'legacy', async () => {
      asked++
      return { action: 'accept', content: { name: 'Ada' } }
    })
    // `slow` runs on the same connection (its progress shows it does) while the question comes.
    const slow = client.callTool(
      { name: 'mcp_old_slow', arguments: { steps: 40, delayMs: 50 } },
      { onprogress: () => {} },
    )
    const started = await daemon.waitForEvent(
      (e) => e.type === 'call.requested' && e.tool === 'mcp_old_slow',
    )
    await daemon.waitForEvent(
      (e) => e.type === 'call.progress' && 'callId' in started && e.callId === started.callId,
    )
    const result = await client.callTool({ name: 'mcp_old_ask_user', arguments: {} })
    await slow
    expect(asked).toBe(0)
    // The people in Ferry would be asked, in every session with one of the calls; none is attached.
    expect(answersOf(result)).toEqual([{ action: 'decline', _meta: { [REASON_KEY]: NOBODY } }])
    await client.close()
  })

  it("asks a second call's client a legacy server's question while the first call waits for its own client's answer", async () => {
    let release: (answer: ElicitResult) => void = () => {}
    let first: Client | undefined
    let firstResult: Promise<unknown> | undefined
    const firstAsked = new Promise<void>((asked) => {
      void gatewayClient(daemon, secret, 'legacy', () => {
        asked()
        return new Promise<ElicitResult>((resolve) => (release = resolve))
      }).then((client) => {
        first = client
        firstResult = client.callTool({ name: 'mcp_old_ask_user', arguments: {} })
      })
    })
    await firstAsked
    const second = await gatewayClient(daemon, secret, 'legacy', async () => ({
      action: 'accept',
      content: { name: 'Bo' },
    }))
    // The first call's question is open, so it is waiting, not asking: the question is the second's.
    const result = await second.callTool({ name: 'mcp_old_ask_user', arguments: {} })
    expect(answersOf(result)).toEqual([{ action: 'accept', content: { name: 'Bo' } }])
    release({ action: 'accept', content: { name: 'Ada' } })
    expect(answersOf(await firstResult)).toEqual([{ action: 'accept', content: { name: 'Ada' } }])
    await Promise.all([first?.close(), second.close()])
  })

  for (const server of ['old', 'new'] as const) {
    it(`withdraws a forwarded question of a ${server === 'old' ? 'legacy' : '2026-07-28'} server from the client when the call is cancelled in Ferry`, async () => {
      const stream = await openStream(daemon)
      stream.send({ type: 'hello', client: { kind: 'webshell', label: 'the tab' } })
      await stream.subscribe()
      let withdrawn: Promise<void> | undefined
      const client = new Client(
        { name: 'test-legacy', version: '1.0.0' },
        { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'legacy' } },
      )
      client.setRequestHandler('elicitation/create', (_request, ctx) => {
        const signal = ctx.mcpReq.signal
        withdrawn = new Promise((resolve) => signal.addEventListener('abort', () => resolve()))
        // Never answered: only the withdrawal ends it.
        return new Promise<ElicitResult>(() => {})
      })
      await client.connect(
        new StreamableHTTPClientTransport(new URL('mcp', daemon.info.url), {
          requestInit: { headers: { authorization: `Bearer ${secret}` } },
        }),
      )
      const seen = stream.events.length
      const tool = `mcp_${server}_ask_user`
      const call = client.callTool({ name: tool, arguments: {} })
      await waitFor(() => withdrawn !== undefined || undefined)
      const requested = stream.events
        .slice(seen)
        .find((e) => e.type === 'call.requested' && e.tool === tool)
      if (requested?.type !== 'call.requested') throw new Error('no call')
      stream.send({ type: 'cancel', ref: 'c', callId: requested.callId })
      await withdrawn
      expect(await call).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: `${tool} was cancelled in Ferry by the tab` }],
      })
      stream.ws.close()
      await stream.closed
      await client.close()
    })
  }

  it("declines a server's question during a call made outside the gateway when nobody is attached to answer it", async () => {
    const response = await daemon.api('/call', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'mcp_new_ask_user', arguments: {} }),
    })
    const body = (await response.json()) as { result: unknown }
    expect(answersOf(body.result)).toEqual([
      {
        action: 'decline',
        _meta: { [REASON_KEY]: NOBODY },
      },
    ])
  })

  it('refuses a tampered requestState with -32602, and the call still takes its real answers', async () => {
    const client = await gatewayClient(
      daemon,
      secret,
      'modern',
      () => Promise.reject(new Error('answered by hand')),
      { autoFulfill: false },
    )
    const name = 'mcp_new_ask_user'
    const first = (await client.callTool(
      { name, arguments: {} },
      { allowInputRequired: true },
    )) as { resultType?: string; requestState?: string; inputRequests?: Record<string, unknown> }
    expect(first.resultType).toBe('input_required')
    const state = first.requestState ?? ''
    const keys = Object.keys(first.inputRequests ?? {})
    const inputResponses = Object.fromEntries(
      keys.map((key) => [key, { action: 'accept', content: { name: 'Grace' } }]),
    )
    const tampered = `${state.slice(0, -2)}${state.endsWith('AA') ? 'BB' : 'AA'}`
    const retry = (requestState: string) =>
      client.callTool({ name, arguments: {}, inputResponses, requestState } as never, {
        allowInputRequired: true,
      })
    const refused = await retry(tampered).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(ProtocolError)
    expect((refused as ProtocolError).code).toBe(-32602)
    // Another client's retry with the genuine state is refused too: a state is its client's own.
    const other = await gatewayClient(
      daemon,
      await token(daemon, 'other'),
      'modern',
      () => Promise.reject(new Error('answered by hand')),
      { autoFulfill: false },
    )
    const stolen = await other
      .callTool({ name, arguments: {}, inputResponses, requestState: state } as never, {
        allowInputRequired: true,
      })
      .catch((error: unknown) => error)
    expect(stolen).toBeInstanceOf(ProtocolError)
    expect((stolen as ProtocolError).code).toBe(-32602)
    await other.close()
    const result = await retry(state)
    expect(answersOf(result)).toEqual([{ action: 'accept', content: { name: 'Grace' } }])
    // The call is over: its state, though genuine, continues nothing.
    const over = await retry(state).catch((error: unknown) => error)
    expect(over).toBeInstanceOf(ProtocolError)
    expect((over as ProtocolError).message).toContain('is no longer waiting for them')
    await client.close()
  })
})

describe('confirmations asked in the client (--confirm-in-client)', () => {
  let daemon: Daemon
  let secret: string

  beforeAll(async () => {
    daemon = await startInProcess({
      mcpServers: {
        fx: fixture(['--era', 'dual'], { trust: false, versionNegotiation: 'legacy' }),
      },
    })
    await daemon.waitForStatus('fx', 'ready')
    secret = await token(daemon, 'careful', ['--confirm-in-client'])
  })
  afterAll(cleanup)

  const lastResolved = async (tool: string) => {
    const events = await daemon.events()
    const call = callsOf(events, tool).at(-1)
    return events.filter((e) => e.type === 'confirmation.resolved' && e.callId === call?.callId)
  }

  for (const era of ['legacy', 'modern'] as const) {
    it(`never asks a ${era} client that did not declare elicitation: with nobody attached the call ends at once`, async () => {
      const client = await gatewayClient(daemon, secret, era)
      const result = await client.callTool({ name: 'mcp_fx_slow', arguments: { steps: 0 } })
      expect(result).toMatchObject({ isError: true })
      expect(JSON.stringify(result)).toContain('nobody is there to give it')
      await client.close()
    })
  }

  for (const era of ['legacy', 'modern'] as const) {
    it(`keeps a ${era} client that declared elicitation hearing that its call waits for the WebShell`, async () => {
      const plain = await token(daemon, `plain-${era}`)
      const stream = await openStream(daemon)
      stream.send({ type: 'hello', client: { kind: 'webshell', label: 'the tab' } })
      await stream.subscribe()
      let asked = 0
      const client = await gatewayClient(daemon, plain, era, () => {
        asked++
        return Promise.resolve({ action: 'decline' })
      })
      const seen = stream.events.length
      const heard: string[] = []
      const call = client.callTool(
        { name: 'mcp_fx_slow', arguments: { steps: 0 } },
        { onprogress: (progress) => heard.push(progress.message ?? '') },
      )
      const requested = await waitFor(() =>
        stream.events
          .slice(seen)
          .find((e) => e.type === 'confirmation.requested' && e.tool === 'mcp_fx_slow'),
      )
      await waitFor(() => heard.includes('waiting for confirmation in Ferry') || undefined)
      if (requested.type !== 'confirmation.requested') throw new Error('no call id')
      stream.send({ type: 'answer', ref: 'a', callId: requested.callId, outcome: 'allow_once' })
      expect(await call).toMatchObject({ content: [{ type: 'text', text: 'done' }] })
      expect(asked).toBe(0)
      stream.ws.close()
      await stream.closed
      await client.close()
    })

    it(`lets a ${era} client's user allow the call through an elicitation, recorded as the client's answer`, async () => {
      const asked: ElicitParams[] = []
      const client = await gatewayClient(daemon, secret, era, async (params) => {
        asked.push(params)
        return { action: 'accept', content: { decision: 'allow_once' } }
      })
      const result = await client.callTool({ name: 'mcp_fx_slow', arguments: { steps: 0 } })
      expect(result).toMatchObject({ content: [{ type: 'text', text: 'done' }] })
      expect(asked).toHaveLength(1)
      expect(asked[0]?.message).toContain('mcp_fx_slow on server "fx" with arguments {"steps":0}')
      const schema = asked[0]?.requestedSchema as {
        properties: { decision: { oneOf: Array<{ const: string }> } }
      }
      expect(schema.properties.decision.oneOf.map((o) => o.const)).toEqual([
        'allow_once',
        'allow_tool',
        'allow_server',
        'deny',
      ])
      const resolved = await lastResolved('mcp_fx_slow')
      expect(resolved).toHaveLength(1)
      expect(resolved[0]).toMatchObject({
        outcome: 'allow_once',
        client: { kind: 'mcp', label: 'careful (gateway)' },
      })
      await client.close()
    })

    it(`lets a WebSocket answer that comes first win over a ${era} client's late elicitation answer`, async () => {
      const stream = await openStream(daemon)
      stream.send({ type: 'hello', client: { kind: 'webshell', label: 'the tab' } })
      await stream.subscribe()
      let release: (answer: ElicitResult) => void = () => {}
      const held = new Promise<ElicitResult>((resolve) => (release = resolve))
      let asked = 0
      const client = await gatewayClient(daemon, secret, era, () => {
        asked++
        return held
      })
      // The subscription replayed the session so far; only this call's events count.
      const seen = stream.events.length
      const call = client.callTool({ name: 'mcp_fx_slow', arguments: { steps: 0 } })
      const requested = await waitFor(() =>
        stream.events
          .slice(seen)
          .find((e) => e.type === 'confirmation.requested' && e.tool === 'mcp_fx_slow'),
      )
      await waitFor(() => asked === 1 || undefined)
      if (requested.type !== 'confirmation.requested') throw new Error('no call id')
      stream.send({ type: 'answer', ref: 'a', callId: requested.callId, outcome: 'allow_once' })
      await waitFor(() =>
        stream.events.find(
          (e) => e.type === 'call.result' && 'callId' in e && e.callId === requested.callId,
        ),
      )
      release({ action: 'accept', content: { decision: 'deny' } })
      // A 2026-07-28 client brings the late answer in the retry that gets the result; a legacy
      // one sends it before its next request.
      expect(await call).toMatchObject({ content: [{ type: 'text', text: 'done' }] })
      await client.listTools()
      const resolved = (await daemon.events()).filter(
        (e) => e.type === 'confirmation.resolved' && e.callId === requested.callId,
      )
      expect(resolved).toHaveLength(1)
      expect(resolved[0]).toMatchObject({ outcome: 'allow_once', client: { label: 'the tab' } })
      stream.ws.close()
      await stream.closed
      await client.close()
    })
  }
})

describe('the requestState key', () => {
  afterAll(cleanup)

  it('is kept across a restart in a 0600 file, so a round from before it is told its call ended', async () => {
    const settings = {
      mcpServers: {
        new: fixture(['--elicit-tool', '--era', 'modern'], { versionNegotiation: 'auto' }),
      },
    }
    const first = await startInProcess(settings)
    await first.waitForStatus('new', 'ready')
    const secret = await token(first, 'agent')
    const manual = async (daemon: Daemon) =>
      gatewayClient(daemon, secret, 'modern', () => Promise.reject(new Error('by hand')), {
        autoFulfill: false,
      })
    const before = await manual(first)
    const round = (await before.callTool(
      { name: 'mcp_new_ask_user', arguments: {} },
      { allowInputRequired: true },
    )) as { requestState?: string }
    expect(typeof round.requestState).toBe('string')
    await before.close()
    await first.stop()
    const key = await stat(join(first.stateDir, 'gateway-request-state.key'))
    expect(key.mode & 0o777).toBe(0o600)

    const second = await startInProcess(settings, { stateDir: first.stateDir })
    await second.waitForStatus('new', 'ready')
    const after = await manual(second)
    const refused = await after
      .callTool(
        {
          name: 'mcp_new_ask_user',
          arguments: {},
          inputResponses: { q0: { action: 'accept', content: { name: 'Ada' } } },
          requestState: round.requestState,
        } as never,
        { allowInputRequired: true },
      )
      .catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(ProtocolError)
    expect((refused as ProtocolError).message).toContain(
      'is no longer waiting for them: it ended, or Ferry restarted; call mcp_new_ask_user again',
    )
    await after.close()
  })
})
