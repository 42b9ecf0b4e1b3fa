import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CallStreamLine } from '../src/protocol/index.js'
import { cleanup, fixture, startDaemon, waitFor, type TestDaemon } from './harness.js'
import {
  answerInput,
  answerer,
  endOf,
  nextInput,
  resolvedOf,
  questionOf,
  startCall,
} from './inputs-rig.js'
import { openStream } from './stream-harness.js'

const SERVERS = { legacy: 'old', modern: 'new' } as const

/** What the fixture's tools say they received. */
function receivedOf(text: string): unknown {
  const parsed = JSON.parse(text) as { received?: unknown; answers?: unknown }
  return parsed.received ?? parsed.answers
}

describe('questions from the fixture servers, in both eras', () => {
  let daemon: TestDaemon

  beforeAll(async () => {
    daemon = await startDaemon(
      {
        mcpServers: {
          old: fixture(['--elicit-tool', '--input-tools', '--era', 'legacy'], {
            versionNegotiation: 'legacy',
          }),
          new: fixture(['--elicit-tool', '--input-tools', '--era', 'modern'], {
            versionNegotiation: 'auto',
          }),
        },
        // The workspace named on purpose: every server's root.
      },
      { args: ['--workspace', '.'] },
    )
    expect(await daemon.waitForStatus('old', 'ready')).toMatchObject({ era: 'legacy' })
    expect(await daemon.waitForStatus('new', 'ready')).toMatchObject({ era: 'modern' })
  })
  afterAll(cleanup)

  for (const era of ['legacy', 'modern'] as const) {
    for (const rounds of [1, 2]) {
      it(`ties each of ${rounds} question(s) of a ${era} server to the call that asked`, async () => {
        const tab = await answerer(daemon)
        const { callId } = await startCall(tab, `mcp_${SERVERS[era]}_ask_user`, { rounds })
        for (let round = 0; round < rounds; round++) {
          const input = await nextInput(tab, callId, round)
          expect(input).toMatchObject({
            callId,
            server: SERVERS[era],
            kind: 'form',
            message: `What is your name? (question ${round + 1})`,
          })
          await answerInput(tab, input.inputId, {
            action: 'accept',
            content: { name: `Ada ${round + 1}` },
          })
        }
        const { text } = await endOf(tab, callId)
        expect(receivedOf(text)).toEqual(
          Array.from({ length: rounds }, (_, i) => ({
            action: 'accept',
            content: { name: `Ada ${i + 1}` },
          })),
        )
        tab.ws.close()
      })
    }

    it(`keeps a ${era} call with a short timeout alive while a person takes longer to answer`, async () => {
      const tab = await answerer(daemon)
      const { callId } = await startCall(tab, `mcp_${SERVERS[era]}_ask_user`, {}, 500)
      const input = await nextInput(tab, callId)
      // The person takes twice the call's timeout: only the clock can show it stood still.
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      await answerInput(tab, input.inputId, { action: 'accept', content: { name: 'Slow' } })
      const { text, event } = await endOf(tab, callId)
      expect(event.type).toBe('call.result')
      expect(receivedOf(text)).toEqual([{ action: 'accept', content: { name: 'Slow' } }])
      tab.ws.close()
    })

    it(`withdraws an open question of a ${era} server when its call is cancelled`, async () => {
      const tab = await answerer(daemon)
      const { callId } = await startCall(tab, `mcp_${SERVERS[era]}_ask_user`)
      const input = await nextInput(tab, callId)
      tab.send({ type: 'cancel', ref: 'cancel', callId })
      expect(await resolvedOf(tab, input.inputId)).toMatchObject({
        action: 'cancel',
        reason: 'the call it belonged to ended',
        client: null,
      })
      expect((await endOf(tab, callId)).event.type).toBe('call.cancelled')
      expect(await answerInput(tab, input.inputId, { action: 'decline' })).toMatchObject({
        ok: false,
        error: {
          code: 'conflict',
          message: 'already answered by Ferry (the call it belonged to ended): cancel',
        },
      })
      tab.ws.close()
    })
  }

  it('asks a legacy question in every session with a call on its server when several run, and the first answer wins', async () => {
    const created = await daemon.api('/sessions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'second' }),
    })
    const other = ((await created.json()) as { id: string }).id
    const here = await answerer(daemon, 'tab here')
    const there = await openStream(daemon)
    there.send({ type: 'hello', client: { kind: 'webshell', label: 'tab there' } })
    await there.subscribe(other)
    const slow = await startCall(there, 'mcp_old_slow', { steps: 400, delayMs: 50 })
    await waitFor(
      () =>
        there.events.some((e) => e.type === 'call.progress' && e.callId === slow.callId) ||
        undefined,
    )
    const { callId } = await startCall(here, 'mcp_old_ask_user')
    const seenHere = await questionOf(here, 'old')
    const seenThere = await questionOf(there, 'old')
    expect(seenHere).toMatchObject({ callId: null, inputId: seenThere.inputId })
    await answerInput(there, seenThere.inputId, { action: 'accept', content: { name: 'There' } })
    expect(receivedOf((await endOf(here, callId)).text)).toEqual([
      { action: 'accept', content: { name: 'There' } },
    ])
    expect(await resolvedOf(here, seenHere.inputId)).toMatchObject({
      client: { label: 'tab there' },
    })
    there.send({ type: 'cancel', ref: 'stop', callId: slow.callId })
    await endOf(there, slow.callId)
    here.ws.close()
    there.ws.close()
  })

  it('withdraws a question when the last client that could answer it detaches', async () => {
    const tab = await answerer(daemon)
    const call = daemon.api('/call', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'mcp_old_ask_user', arguments: {} }),
    })
    const input = await questionOf(tab, 'old')
    const watcher = await openStream(daemon)
    watcher.send({ type: 'hello', client: { kind: 'webshell', label: 'watcher' }, readOnly: true })
    watcher.send({ type: 'subscribe' })
    // A read-only client sees the question but may not answer it.
    await waitFor(() => watcher.events.some((e) => e.type === 'input.requested') || undefined)
    expect(await answerInput(watcher, input.inputId, { action: 'decline' })).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    })
    tab.ws.close()
    const body = (await (await call).json()) as { result: { structuredContent: unknown } }
    expect(body.result.structuredContent).toEqual({
      answers: [
        {
          action: 'cancel',
          _meta: { 'ferry/reason': 'every client that could answer it detached' },
        },
      ],
    })
    expect(await resolvedOf(watcher, input.inputId)).toMatchObject({
      action: 'cancel',
      reason: 'every client that could answer it detached',
    })
    watcher.ws.close()
  })

  it('lets an interactive NDJSON caller answer its own call, with nobody else attached', async () => {
    const response = await daemon.api('/call', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' },
      body: JSON.stringify({
        tool: 'mcp_new_ask_user',
        arguments: {},
        interactive: true,
        client: { kind: 'cli', label: 'ferry call on a terminal' },
      }),
    })
    const lines: CallStreamLine[] = []
    const reader = response.body?.getReader()
    if (reader === undefined) throw new Error('no body')
    const decoder = new TextDecoder()
    let buffered = ''
    for (;;) {
      const { value, done } = await reader.read()
      if (done) break
      buffered += decoder.decode(value, { stream: true })
      const parts = buffered.split('\n')
      buffered = parts.pop() ?? ''
      for (const part of parts) {
        const line = JSON.parse(part) as CallStreamLine
        lines.push(line)
        if ('input' in line) {
          const answered = await daemon.api(`/inputs/${line.input.inputId}/answer`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              action: 'accept',
              content: { name: 'Terminal' },
              client: { kind: 'cli', label: 'ferry call on a terminal' },
            }),
          })
          expect(answered.status).toBe(200)
        }
      }
    }
    const input = lines.find((line) => 'input' in line)
    expect(input).toMatchObject({ input: { type: 'input.requested', kind: 'form', server: 'new' } })
    expect(lines.find((line) => 'inputResolved' in line)).toEqual({
      inputResolved: {
        inputId: (input as { input: { inputId: string } }).input.inputId,
        action: 'accept',
        by: 'ferry call on a terminal',
      },
    })
    expect(lines.at(-1)).toMatchObject({
      result: {
        structuredContent: { answers: [{ action: 'accept', content: { name: 'Terminal' } }] },
      },
    })
  })

  it('keeps a masked field of a 2026-07-28 form out of the transcript, and sends it to the server', async () => {
    const tab = await answerer(daemon)
    const { callId } = await startCall(tab, 'mcp_new_ask_person', { kind: 'secret' })
    const input = await nextInput(tab, callId)
    await answerInput(tab, input.inputId, {
      action: 'accept',
      content: { user: 'ada', key: 'hunter2-secret' },
    })
    expect(receivedOf((await endOf(tab, callId)).text)).toEqual({
      action: 'accept',
      content: { user: 'ada', key: 'hunter2-secret' },
    })
    expect(await resolvedOf(tab, input.inputId)).toMatchObject({
      content: { user: 'ada', key: '[redacted]' },
    })
    tab.ws.close()
  })

  it('never gets a legacy question with a masked field: the SDK refuses it, and the server hears why', async () => {
    const tab = await answerer(daemon)
    const { callId } = await startCall(tab, 'mcp_old_ask_person', { kind: 'secret' })
    // The call's first event after its request: a question for the person, or its end.
    const first = await waitFor(
      () =>
        tab.events.find(
          (e) => (e.type === 'input.requested' || e.type === 'call.result') && e.callId === callId,
        ),
      30_000,
      'a question or the end of the call',
    )
    expect(first.type).toBe('call.result')
    // The server's own result says what its `elicitation/create` got back.
    const { text } = await endOf(tab, callId)
    expect(text).toContain('Invalid elicitation request')
    expect(text).toContain('expected one of \\"email\\"|\\"uri\\"|\\"date\\"|\\"date-time\\"')
    tab.ws.close()
  })

  it("shows a 2026-07-28 URL question's URL and origin, and sends the person's accept", async () => {
    const tab = await answerer(daemon)
    const { callId } = await startCall(tab, 'mcp_new_ask_person', { kind: 'url' })
    const input = await nextInput(tab, callId)
    expect(input).toMatchObject({
      kind: 'url',
      message: 'Authorize the fixture',
      url: 'https://auth.example.com:8443/authorize?client=fixture',
      urlOrigin: 'https://auth.example.com:8443',
    })
    const refused = await answerInput(tab, input.inputId, { action: 'accept', content: { a: 1 } })
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_input_answer' } })
    await answerInput(tab, input.inputId, { action: 'accept' })
    expect(receivedOf((await endOf(tab, callId)).text)).toEqual({ action: 'accept' })
    tab.ws.close()
  })

  it("answers a 2026-07-28 sampling round with the person's reply in the model's place", async () => {
    const tab = await answerer(daemon)
    const { callId } = await startCall(tab, 'mcp_new_ask_person', { kind: 'sampling' })
    const input = await nextInput(tab, callId)
    expect(input).toMatchObject({
      kind: 'sampling',
      message: 'asks for a model reply to 1 message, at most 50 tokens',
      sampling: {
        messages: [{ role: 'user', content: { type: 'text', text: 'Say hello to the fixture' } }],
        systemPrompt: 'You are a fixture.',
        maxTokens: 50,
      },
    })
    const refused = await answerInput(tab, input.inputId, {
      action: 'accept',
      content: { txt: 'x' },
    })
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'invalid_input_answer', message: expect.stringContaining('content') },
    })
    await answerInput(tab, input.inputId, { action: 'accept', content: { text: 'Hello, fixture' } })
    expect(receivedOf((await endOf(tab, callId)).text)).toEqual({
      role: 'assistant',
      content: { type: 'text', text: 'Hello, fixture' },
      model: 'human',
      stopReason: 'endTurn',
    })
    expect(await resolvedOf(tab, input.inputId)).toMatchObject({
      reply: { text: 'Hello, fixture', model: 'human', stopReason: 'endTurn' },
      client: { label: 'the tab' },
    })
    tab.ws.close()
  })

  it('sends the server the model name and stop reason a person set on a sampling reply', async () => {
    const tab = await answerer(daemon)
    const { callId } = await startCall(tab, 'mcp_new_ask_person', { kind: 'sampling' })
    const input = await nextInput(tab, callId)
    const refused = await answerInput(tab, input.inputId, {
      action: 'accept',
      content: { text: 'Hello', stopReason: '' },
    })
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_input_answer',
        message: expect.stringContaining('content/stopReason: expected a non-empty stop reason'),
      },
    })
    await answerInput(tab, input.inputId, {
      action: 'accept',
      content: { text: 'Hello', model: 'person-1', stopReason: 'maxTokens' },
    })
    expect(receivedOf((await endOf(tab, callId)).text)).toEqual({
      role: 'assistant',
      content: { type: 'text', text: 'Hello' },
      model: 'person-1',
      stopReason: 'maxTokens',
    })
    expect(await resolvedOf(tab, input.inputId)).toMatchObject({
      reply: { text: 'Hello', model: 'person-1', stopReason: 'maxTokens' },
    })
    tab.ws.close()
  })

  it('ends a 2026-07-28 call whose sampling request the person declines, saying why', async () => {
    const tab = await answerer(daemon)
    const { callId } = await startCall(tab, 'mcp_new_ask_person', { kind: 'sampling' })
    const input = await nextInput(tab, callId)
    await answerInput(tab, input.inputId, { action: 'decline' })
    const { event } = await endOf(tab, callId)
    expect(event).toMatchObject({
      type: 'call.failed',
      error: {
        code: 'upstream_error',
        message: expect.stringContaining('declined by the tab in Ferry'),
      },
    })
    tab.ws.close()
  })

  it('answers a 2026-07-28 roots round with the workspace, asking nobody', async () => {
    const tab = await answerer(daemon)
    const { callId } = await startCall(tab, 'mcp_new_ask_person', { kind: 'roots' })
    const { text } = await endOf(tab, callId)
    expect(receivedOf(text)).toEqual({
      roots: [
        {
          uri: pathToFileURL(daemon.workspace).href,
          name: daemon.workspace.split('/').at(-1),
        },
      ],
    })
    expect(tab.events.some((e) => e.type === 'input.requested' && e.callId === callId)).toBe(false)
    tab.ws.close()
  })

  it('asks the people in Ferry a question during the call of a gateway client that did not declare elicitation', async () => {
    const created = await daemon.cli(['gateway', 'token', 'create', 'plain'])
    const secret = created.stdout.trim()
    const tab = await answerer(daemon)
    const client = new Client({ name: 'plain', version: '1.0.0' }, { capabilities: {} })
    await client.connect(
      new StreamableHTTPClientTransport(new URL('mcp', daemon.info.url), {
        requestInit: { headers: { authorization: `Bearer ${secret}` } },
      }),
    )
    const call = client.callTool({ name: 'mcp_old_ask_user', arguments: {} })
    const input = await questionOf(tab, 'old')
    await answerInput(tab, input.inputId, { action: 'accept', content: { name: 'From the tab' } })
    expect((await call).structuredContent).toEqual({
      answers: [{ action: 'accept', content: { name: 'From the tab' } }],
    })
    await client.close()
    tab.ws.close()
  })
})

describe('a question open when the daemon dies', () => {
  afterAll(cleanup)

  it('is withdrawn when the daemon starts again, so no client keeps showing it', async () => {
    const settings = {
      mcpServers: {
        old: fixture(['--elicit-tool', '--era', 'legacy'], { versionNegotiation: 'legacy' }),
      },
    }
    const first = await startDaemon(settings)
    await first.waitForStatus('old', 'ready')
    const tab = await answerer(first)
    const { callId } = await startCall(tab, 'mcp_old_ask_user')
    const input = await nextInput(tab, callId)
    // Killed, as a crash would end it: the question is left open in the transcript.
    const exited = new Promise((resolve) => first.process.once('exit', resolve))
    first.process.kill('SIGKILL')
    await exited
    const second = await startDaemon(settings, { stateDir: first.stateDir })
    const events = await second.events()
    expect(
      events.filter((e) => e.type === 'input.resolved' && e.inputId === input.inputId),
    ).toEqual([
      expect.objectContaining({
        action: 'cancel',
        reason: 'Ferry stopped while it was open',
        client: null,
      }),
    ])
    expect(events.find((e) => e.type === 'call.interrupted')).toMatchObject({ callId })
  })
})
