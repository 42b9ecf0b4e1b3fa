import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { TranscriptEvent } from '../src/protocol/index.js'
import { cleanup, fixture, readJsonLines, tempDir, waitFor, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'
import { openStream, type TestStream } from './stream-harness.js'
import { gatewayToken, legacySession, modernRequest, WITH_TASKS } from './tasks-wire.js'

afterEach(cleanup)

type EventOf<T extends TranscriptEvent['type']> = Extract<TranscriptEvent, { type: T }>

/** The tab that answers confirmations and questions, so calls wait for it instead of failing. */
async function tab(daemon: Daemon): Promise<TestStream> {
  const stream = await openStream(daemon)
  stream.send({ type: 'hello', client: { kind: 'webshell', label: 'the tab' } })
  await stream.subscribe()
  return stream
}

function seen<T extends TranscriptEvent['type']>(
  stream: TestStream,
  type: T,
  match: (event: EventOf<T>) => boolean = () => true,
): Promise<EventOf<T>> {
  return waitFor(
    () => stream.events.find((e): e is EventOf<T> => e.type === type && match(e as EventOf<T>)),
    15_000,
    `a ${type} event`,
  )
}

/** A raw 2026-07-28 `tools/call` whose answer is read to its end, or to the failure that cuts it. */
function modernCall(daemon: Daemon, token: string, name: string, args: Record<string, unknown>) {
  return modernRequest(
    daemon,
    token,
    'tools/call',
    { name, arguments: args },
    {},
    { progressToken: 'p1' },
  )
    .then(async (response) => ({ status: response.status, text: await response.text() }))
    .catch((error: unknown) => ({ status: 0, text: `failed: ${String(error)}` }))
}

describe('revoking a gateway token', () => {
  it('cancels its running calls and tasks (the server gets the cancel), withdraws its confirmations and questions, and delivers nothing to it afterwards', async () => {
    const record = join(await tempDir(), 'record.jsonl')
    const daemon = await startInProcess({
      mcpServers: {
        run: fixture(['--record', record, '--elicit-tool', '--tasks-extension']),
        ask: fixture([], { trust: false }),
      },
      gateway: { taskAfterMs: 50 },
    })
    await daemon.waitForStatus('run', 'ready')
    await daemon.waitForStatus('ask', 'ready')
    const person = await tab(daemon)
    const doomed = await gatewayToken(daemon, 'doomed')
    const bystander = await gatewayToken(daemon, 'bystander')
    const long = { steps: 10_000, delayMs: 20 }

    // A 2026-07-28 request running, with progress flowing to it.
    const running = modernCall(daemon, doomed, 'mcp_run_slow', long)
    const runningCall = await seen(person, 'call.progress')
    // A task whose call runs on after the request was answered.
    const legacy = await legacySession(daemon, doomed, WITH_TASKS)
    const task = await legacy.request('tools/call', { name: 'mcp_run_slow', arguments: long })
    expect(task.body.result).toMatchObject({ resultType: 'task', status: 'working' })
    // A call waiting for the person's confirmation, and one whose server asks the person.
    const plain = await legacySession(daemon, doomed, {})
    const settle = (request: Promise<unknown>) =>
      request.then(
        (value) => JSON.stringify(value),
        (error: unknown) => `failed: ${String(error)}`,
      )
    const confirming = settle(plain.request('tools/call', { name: 'mcp_ask_slow', arguments: {} }))
    const question = settle(
      plain.request('tools/call', { name: 'mcp_run_ask_user', arguments: {} }),
    )
    const asked = await seen(person, 'confirmation.requested', (e) => e.tool === 'mcp_ask_slow')
    const input = await seen(person, 'input.requested')
    // Another client's call, which must run on.
    const other = modernCall(daemon, bystander, 'mcp_run_slow', { steps: 40, delayMs: 20 })
    const otherCall = await seen(person, 'call.requested', (e) => e.client?.id === 'mcp:bystander')

    const revoked = await daemon.cli(['gateway', 'token', 'revoke', 'doomed'])
    expect(revoked.code).toBe(0)

    const requested = person.events.filter(
      (e): e is EventOf<'call.requested'> =>
        e.type === 'call.requested' && e.client?.id === 'mcp:doomed',
    )
    expect(requested).toHaveLength(4)
    // Every call of the token ends cancelled, the running ones on the server too.
    for (const call of requested) {
      await seen(person, 'call.cancelled', (e) => e.callId === call.callId)
    }
    await waitFor(
      async () =>
        (await readJsonLines(record)).filter((r) => r.method === 'cancelled').length === 2 ||
        undefined,
      15_000,
      'the server to get both cancels',
    )
    // Its confirmation and its question are withdrawn: nobody can answer them any more.
    const late = await daemon.api(`/calls/${asked.callId}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ outcome: 'allow_once' }),
    })
    expect(late.status).toBe(404)
    expect(await seen(person, 'input.resolved', (e) => e.inputId === input.inputId)).toMatchObject({
      action: 'cancel',
    })

    // Nothing of the running request reaches the client: no result, only the cut or the refusal.
    const answer = await running
    expect(answer.text).not.toMatch(/"result"/)
    expect(answer.status === 0 || /revoked/.test(answer.text)).toBe(true)
    expect(runningCall.callId).toBe(requested[0]?.callId)
    // Neither do the legacy sessions' requests, nor anything they ask for later.
    for (const pending of [await confirming, await question])
      expect(pending).not.toMatch(/"result"/)
    expect((await legacy.request('tools/list')).status).toBe(401)

    // The bystander's call runs to its end.
    expect((await other).text).toContain('done')
    const ended = await seen(person, 'call.result', (e) => e.callId === otherCall.callId)
    expect(ended.result).toMatchObject({ content: [{ type: 'text', text: 'done' }] })
    person.ws.close()
  })
})
