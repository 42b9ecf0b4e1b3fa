// Replaying requests of a server's protocol trace through the REST surface of an in-process
// daemon: a replayed call takes the call path (its confirmation when the tool is not trusted),
// a listing and a ping go to the server again, and what cannot or may not be sent is refused
// with what to do instead.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type {
  CallResponse,
  ReplayResponse,
  TraceEntry,
  TraceResponse,
} from '../src/protocol/index.js'
import { cleanup, fixture, waitFor, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'
import { openStream, type TestStream } from './stream-harness.js'

const json = { 'content-type': 'application/json' }
let daemon: Daemon
let tab: TestStream

beforeAll(async () => {
  daemon = await startInProcess({ mcpServers: { fx: fixture([], { trust: false }) } })
  await daemon.waitForStatus('fx', 'ready')
  // An attached client, so a confirmation has someone to ask.
  tab = await openStream(daemon)
  await tab.subscribe()
})

afterAll(async () => {
  tab.ws.close()
  await cleanup()
})

async function trace(): Promise<TraceEntry[]> {
  return ((await (await daemon.api('/servers/fx/trace')).json()) as TraceResponse).entries
}

async function post(path: string, body: unknown): Promise<number> {
  const response = await daemon.api(path, {
    method: 'POST',
    headers: json,
    body: JSON.stringify(body),
  })
  await response.text()
  return response.status
}

function replay(body: Record<string, unknown>): Promise<Response> {
  return daemon.api('/servers/fx/replay', {
    method: 'POST',
    headers: json,
    body: JSON.stringify(body),
  })
}

async function refusal(
  body: Record<string, unknown>,
): Promise<{ status: number; message: string }> {
  const response = await replay(body)
  const { error } = (await response.json()) as { error: { message: string } }
  return { status: response.status, message: error.message }
}

const lastRequest = (entries: TraceEntry[], method: string) =>
  entries.filter((e) => e.kind === 'request' && e.method === method).at(-1)

describe('replaying a traced request', () => {
  it('sends a tools/call again through the confirmation its untrusted tool needs', async () => {
    const first = await daemon.api('/call', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ tool: 'mcp_fx_slow', arguments: { steps: 0 }, yes: true }),
    })
    const done = (await first.json()) as CallResponse
    expect(done.result.content).toEqual([{ type: 'text', text: 'done' }])
    const traced = lastRequest(await trace(), 'tools/call')
    if (traced === undefined) throw new Error('the call is not in the trace')

    let settled = false
    const replayed = replay({
      seq: traced.seq,
      params: { name: 'slow', arguments: { steps: 1, delayMs: 0 } },
    })
    void replayed.then(() => (settled = true))
    const asked = await waitFor(
      () =>
        tab.events.find(
          (e): e is Extract<typeof e, { type: 'confirmation.requested' }> =>
            e.type === 'confirmation.requested' && e.callId !== done.id,
        ),
      15_000,
      'the confirmation of the replayed call',
    )
    // Asked, not sent: nothing reached the server and the replay still waits.
    expect(settled).toBe(false)
    expect(lastRequest(await trace(), 'tools/call')?.seq).toBe(traced.seq)
    const requested = tab.events.find(
      (e) => e.type === 'call.requested' && e.callId === asked.callId,
    )
    expect(requested).toMatchObject({ arguments: { steps: 1, delayMs: 0 } })

    tab.send({ type: 'answer', ref: 'a1', callId: asked.callId, outcome: 'allow_once' })
    const response = await replayed
    expect(response.status).toBe(200)
    const body = (await response.json()) as ReplayResponse
    expect(body).toMatchObject({
      server: 'fx',
      seq: traced.seq,
      method: 'tools/call',
      callId: asked.callId,
      result: { content: [{ type: 'text', text: 'done' }] },
    })
    const again = lastRequest(await trace(), 'tools/call')
    expect(again?.seq).toBeGreaterThan(traced.seq)
    expect(again?.message).toMatchObject({
      params: { name: 'slow', arguments: { steps: 1, delayMs: 0 } },
    })
  })

  it('records a replayed prompt get and resource read in the session, as the client that replayed them', async () => {
    expect(
      await post('/prompts/get', { name: 'mcp_fx_greeting', arguments: { name: 'Ada' } }),
    ).toBe(200)
    expect(await post('/resources/read', { server: 'fx', uri: 'fixture://readme' })).toBe(200)
    const entries = await trace()
    const get = lastRequest(entries, 'prompts/get')
    const read = lastRequest(entries, 'resources/read')
    const client = { kind: 'webshell', label: 'WebShell tab 1' }
    const got = await replay({
      seq: get?.seq,
      params: { name: 'greeting', arguments: { name: 'Bo' } },
      client,
    })
    expect(got.status).toBe(200)
    expect(((await got.json()) as ReplayResponse).result).toMatchObject({
      messages: [{ content: { text: 'Hello, Bo!' } }],
    })
    const reread = await replay({ seq: read?.seq, client })
    expect(reread.status).toBe(200)
    expect((await reread.json()) as ReplayResponse).toMatchObject({
      method: 'resources/read',
      result: { contents: [{ uri: 'fixture://readme' }] },
    })
    const recorded = await waitFor(
      () => {
        const mine = tab.events.filter(
          (e) =>
            (e.type === 'prompt.got' || e.type === 'resource.read') &&
            e.client?.label === client.label,
        )
        return mine.length === 2 ? mine : undefined
      },
      15_000,
      'the replayed get and read in the transcript',
    )
    expect(recorded.map((e) => e.type)).toEqual(['prompt.got', 'resource.read'])
    expect(recorded[0]).toMatchObject({ arguments: { name: 'Bo' } })
  })

  it('lists again on the wire, past any cache', async () => {
    const listed = lastRequest(await trace(), 'tools/list')
    if (listed === undefined) throw new Error('no tools/list in the trace')
    const response = await replay({ seq: listed.seq })
    expect(response.status).toBe(200)
    const body = (await response.json()) as ReplayResponse
    expect(body.method).toBe('tools/list')
    expect((body.result as { tools: { name: string }[] }).tools.map((t) => t.name)).toContain(
      'echo',
    )
    expect(lastRequest(await trace(), 'tools/list')?.seq).toBeGreaterThan(listed.seq)
  })

  it('refuses what cannot be replayed, and params that do not fit, saying what to do', async () => {
    const entries = await trace()
    const initialize = entries.find((e) => e.method === 'initialize' && e.kind === 'request')
    const answer = entries.find((e) => e.kind === 'response')
    const notification = entries.find((e) => e.kind === 'notification')
    const call = lastRequest(entries, 'tools/call')
    expect(await refusal({ seq: initialize?.seq })).toEqual({
      status: 400,
      message: `message ${initialize?.seq} cannot be replayed: initialize opens a connection and cannot be replayed; reconnect the server to start a new one`,
    })
    expect((await refusal({ seq: answer?.seq })).message).toContain(
      'replay the request it answers instead',
    )
    expect((await refusal({ seq: notification?.seq })).message).toContain(
      'is a notification; only requests Ferry sent can be replayed',
    )
    expect(await refusal({ seq: call?.seq, params: { name: 'slow', argumnets: {} } })).toEqual({
      status: 400,
      message: 'params: Unrecognized key: "argumnets" (for tools/call)',
    })
    expect(await refusal({ seq: call?.seq, params: [1] })).toMatchObject({ status: 400 })
    expect(await refusal({ seq: 999_999 })).toEqual({
      status: 404,
      message:
        'server "fx"\'s trace holds no message 999999 (it keeps the last 1,000 each way); pick one it shows',
    })
  })
})
