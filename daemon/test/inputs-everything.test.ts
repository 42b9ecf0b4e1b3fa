import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { bindTaskReceiver } from '@modelcontextprotocol/ext-tasks/receiver'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ToolInfo } from '../src/protocol/index.js'
import { cleanup, waitFor, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'
import {
  answerInput,
  answerer,
  endOf,
  everything,
  everythingPath,
  nextInput,
  resolvedOf,
  startCall,
} from './inputs-rig.js'

const ELICIT = 'mcp_everything_trigger-elicitation-request'

/**
 * The tool names server-everything lists to an SDK client that declares all four capabilities,
 * and takes sampling and elicitation requests as tasks too.
 */
async function toolsForFullClient(): Promise<string[]> {
  const client = new Client(
    { name: 'full-client', version: '1.0.0' },
    {
      capabilities: {
        elicitation: { form: {}, url: {} },
        sampling: {},
        roots: { listChanged: true },
      },
    },
  )
  client.setRequestHandler('roots/list', () => ({ roots: [] }))
  const tasks = bindTaskReceiver(client, {
    methods: { 'sampling/createMessage': true, 'elicitation/create': true },
    sampling: () => Promise.reject(new Error('not asked here')),
    elicitation: () => Promise.reject(new Error('not asked here')),
  })
  client.registerCapabilities({ tasks: { ...tasks.capabilities } })
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [everythingPath, 'stdio'] }),
  )
  const { tools } = await client.listTools()
  await client.close()
  return tools.map((tool) => tool.name).sort()
}

describe('server-everything asks the people in Ferry', () => {
  let daemon: Daemon
  let fullClientTools: string[]

  beforeAll(async () => {
    // With a workspace named, Ferry declares roots too, as a full client does.
    const started = async () => {
      const daemon = await startInProcess(
        { mcpServers: { everything: everything() } },
        { workspaceDeclared: true },
      )
      await daemon.waitForStatus('everything', 'ready')
      return daemon
    }
    ;[daemon, fullClientTools] = await Promise.all([started(), toolsForFullClient()])
  })
  afterAll(cleanup)

  it('lists every tool it offers a client that declares elicitation, sampling and roots', async () => {
    const expected = fullClientTools
    expect(expected).toEqual(
      expect.arrayContaining([
        'trigger-elicitation-request',
        'trigger-url-elicitation',
        'trigger-sampling-request',
        'trigger-sampling-request-async',
        'trigger-elicitation-request-async',
        'get-roots-list',
      ]),
    )
    // Its conditional tools arrive with list_changed right after connecting.
    const listed = await waitFor(async () => {
      const tools = (await (await daemon.api('/tools?server=everything')).json()) as ToolInfo[]
      const names = tools.map((tool) => tool.tool).sort()
      return names.length >= expected.length ? names : undefined
    })
    expect(listed).toEqual(expected)
  })

  it('sends an accepted form from a WebSocket client to the server, recorded with who answered', async () => {
    const tab = await answerer(daemon)
    const { callId } = await startCall(tab, ELICIT)
    const input = await nextInput(tab, callId)
    expect(input).toMatchObject({
      kind: 'form',
      server: 'everything',
      client: null,
      message: 'Please provide inputs for the following fields:',
    })
    expect(Object.keys(input.requestedSchema?.properties as object)).toContain('integer')
    const reply = await answerInput(tab, input.inputId, {
      action: 'accept',
      content: { name: 'Ada Lovelace', integer: 7, email: 'ada@example.com' },
    })
    expect(reply).toMatchObject({ ok: true })
    const { text } = await endOf(tab, callId)
    expect(text).toContain('✅ User provided the requested information!')
    expect(text).toContain('- Name: Ada Lovelace')
    expect(text).toContain('- Favorite Integer: 7')
    expect(await resolvedOf(tab, input.inputId)).toMatchObject({
      action: 'accept',
      content: { name: 'Ada Lovelace', integer: 7, email: 'ada@example.com' },
      client: { label: 'the tab' },
    })
    tab.ws.close()
  })

  for (const [action, shown] of [
    ['decline', '❌ User declined to provide the requested information.'],
    ['cancel', '⚠️ User cancelled the elicitation dialog.'],
  ] as const) {
    it(`sends a ${action} to the server`, async () => {
      const tab = await answerer(daemon)
      const { callId } = await startCall(tab, ELICIT)
      const input = await nextInput(tab, callId)
      expect(await answerInput(tab, input.inputId, { action })).toMatchObject({ ok: true })
      expect((await endOf(tab, callId)).text).toContain(shown)
      tab.ws.close()
    })
  }

  it('refuses content that breaks the schema, naming the field, and sends only a later valid answer', async () => {
    const tab = await answerer(daemon)
    const { callId } = await startCall(tab, ELICIT)
    const input = await nextInput(tab, callId)
    const refusals = [
      [{ name: 'Ada', integer: 500 }, 'content/integer must be <= 100'],
      [{ integer: 5 }, "content must have required property 'name'"],
      [{ name: 'Ada', email: 'not an address' }, 'content/email must match format "email"'],
      [{ name: 'Ada', birthdate: '2024-13-45' }, 'content/birthdate must match format "date"'],
      [{ name: 'Ada', untitledSingleSelectEnum: 'Gunther' }, 'content/untitledSingleSelectEnum'],
      [{ name: 'Ada', titledSingleSelectEnum: 'hero-9' }, 'content/titledSingleSelectEnum'],
      [
        { name: 'Ada', titledMultipleSelectEnum: ['fish-1', 'fish-7'] },
        'content/titledMultipleSelectEnum/1',
      ],
      [
        { name: 'Ada', untitledMultipleSelectEnum: [] },
        'content/untitledMultipleSelectEnum must NOT have fewer than 1 items',
      ],
      [{ name: 'Ada', color: 'red' }, 'content/color: the form has no field "color"'],
    ] as const
    for (const [content, message] of refusals) {
      const reply = await answerInput(tab, input.inputId, { action: 'accept', content })
      expect(reply).toMatchObject({ ok: false, error: { code: 'invalid_input_answer' } })
      if (reply.ok) throw new Error('accepted')
      expect(reply.error.message).toContain(message)
    }
    // REST says the same, with 422.
    const rest = await daemon.api(`/inputs/${input.inputId}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'accept', content: { name: 'Ada', number: -1 } }),
    })
    expect(rest.status).toBe(422)
    expect(await rest.json()).toMatchObject({
      error: { code: 'invalid_input_answer', message: 'content/number must be >= 0' },
    })
    // Nothing reached the server: it still waits, and takes the valid answer that follows.
    const valid = await answerInput(tab, input.inputId, {
      action: 'accept',
      content: { name: 'Grace', titledMultipleSelectEnum: ['fish-2'], birthdate: '1906-12-09' },
    })
    expect(valid).toMatchObject({ ok: true })
    const { text } = await endOf(tab, callId)
    expect(text).toContain('- Name: Grace')
    expect(text).toContain('- Birthdate: 1906-12-09')
    expect(text).not.toContain('Favorite Integer: 500')
    const resolved = tab.events.filter(
      (e) => e.type === 'input.resolved' && e.inputId === input.inputId,
    )
    expect(resolved).toHaveLength(1)
    tab.ws.close()
  })

  it('answers a second answer with 409 naming who answered, and an unknown question with 404', async () => {
    const tab = await answerer(daemon, 'first tab')
    const { callId } = await startCall(tab, ELICIT)
    const input = await nextInput(tab, callId)
    const post = (id: string, body: unknown) =>
      daemon.api(`/inputs/${id}/answer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    const first = await post(input.inputId, {
      action: 'accept',
      content: { name: 'Ada' },
      client: { kind: 'cli', label: 'a script' },
    })
    expect(first.status).toBe(200)
    expect(await first.json()).toEqual({ inputId: input.inputId, action: 'accept' })
    const second = await answerInput(tab, input.inputId, { action: 'decline' })
    expect(second).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: 'already answered by a script: accept' },
    })
    expect((await endOf(tab, callId)).text).toContain('- Name: Ada')
    const unknown = await post('nosuchinput', { action: 'decline' })
    expect(unknown.status).toBe(404)
    const bad = await post(input.inputId, { action: 'maybe' })
    expect(bad.status).toBe(400)
    tab.ws.close()
  })

  it('shows its URL question with the URL and origin, and sends the accept', async () => {
    const tab = await answerer(daemon)
    const url = 'https://login.example.org/device?code=ABCD'
    const { callId } = await startCall(tab, 'mcp_everything_trigger-url-elicitation', { url })
    const input = await nextInput(tab, callId)
    expect(input).toMatchObject({
      kind: 'url',
      url,
      urlOrigin: 'https://login.example.org',
      message: 'Please open the link to complete this action.',
    })
    await answerInput(tab, input.inputId, { action: 'accept' })
    const { text } = await endOf(tab, callId)
    expect(text).toContain('✅ User completed the URL elicitation flow.')
    expect(text).toContain(`URL: ${url}`)
    tab.ws.close()
  })

  it('declines a URL question whose URL is not a web page, without showing it', async () => {
    const tab = await answerer(daemon)
    const { callId } = await startCall(tab, 'mcp_everything_trigger-url-elicitation', {
      url: 'javascript:alert(document.domain)',
    })
    const { text } = await endOf(tab, callId)
    expect(text).toContain('❌ User declined to open the URL')
    expect(text).toContain('Ferry offers only http(s) pages to open')
    expect(tab.events.some((e) => e.type === 'input.requested' && e.callId === callId)).toBe(false)
    tab.ws.close()
  })

  it('declines its sampling request at once when nobody can answer, and the server hears why', async () => {
    // A session of its own, where nothing is attached.
    const created = await daemon.api('/sessions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'unattended' }),
    })
    const session = ((await created.json()) as { id: string }).id
    const response = await daemon.api('/call', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        tool: 'mcp_everything_trigger-sampling-request',
        arguments: { prompt: 'Hi' },
        session,
      }),
    })
    const body = (await response.json()) as { result: { isError?: boolean; content: unknown } }
    expect(body.result.isError).toBe(true)
    expect(JSON.stringify(body.result.content)).toContain(
      'nobody attached to Ferry can answer it: open the WebShell',
    )
    const events = await daemon.events(session)
    const requested = events.find((e) => e.type === 'input.requested')
    expect(requested).toMatchObject({ kind: 'sampling', server: 'everything' })
    expect(events.find((e) => e.type === 'input.resolved')).toMatchObject({
      action: 'decline',
      client: null,
      reason: expect.stringContaining('nobody attached to Ferry can answer it'),
    })
  })

  it("answers its sampling request with a WebSocket client's reply", async () => {
    const tab = await answerer(daemon)
    const { callId } = await startCall(tab, 'mcp_everything_trigger-sampling-request', {
      prompt: 'Say hi',
      maxTokens: 20,
    })
    const input = await nextInput(tab, callId)
    expect(input).toMatchObject({
      kind: 'sampling',
      message: 'asks for a model reply to 1 message, at most 20 tokens',
      sampling: {
        messages: [
          {
            role: 'user',
            content: { type: 'text', text: 'Resource trigger-sampling-request context: Say hi' },
          },
        ],
        systemPrompt: 'You are a helpful test server.',
        maxTokens: 20,
        temperature: 0.7,
      },
    })
    await answerInput(tab, input.inputId, {
      action: 'accept',
      content: { text: 'Hi from a person', model: 'person-1' },
    })
    const { text } = await endOf(tab, callId)
    expect(text).toContain('"text": "Hi from a person"')
    expect(text).toContain('"model": "person-1"')
    tab.ws.close()
  })

  it('answers a sampling request it sends as a task with a person’s reply, which it polls for', async () => {
    const tab = await answerer(daemon)
    const { callId } = await startCall(tab, 'mcp_everything_trigger-sampling-request-async', {
      prompt: 'Say hi later',
      maxTokens: 20,
    })
    const input = await nextInput(tab, callId)
    expect(input).toMatchObject({ kind: 'sampling', server: 'everything' })
    await answerInput(tab, input.inputId, {
      action: 'accept',
      content: { text: 'Hi, as a task', model: 'person-2' },
    })
    const { text } = await endOf(tab, callId)
    expect(text).toContain('[COMPLETED] Async sampling completed!')
    expect(text).toContain('"text": "Hi, as a task"')
    tab.ws.close()
  })

  it('answers an elicitation it sends as a task with a person’s form', async () => {
    const tab = await answerer(daemon)
    const { callId } = await startCall(tab, 'mcp_everything_trigger-elicitation-request-async')
    const input = await nextInput(tab, callId)
    expect(input).toMatchObject({ kind: 'form', server: 'everything' })
    expect(input.message).toContain('async task demo')
    const content = { name: 'Ada', favoriteColor: 'Blue', agreeToTerms: true }
    await answerInput(tab, input.inputId, { action: 'accept', content })
    const { text } = await endOf(tab, callId)
    expect(text).toContain('[COMPLETED]')
    expect(text).toContain('"favoriteColor": "Blue"')
    tab.ws.close()
  })
})

describe("server-everything's roots", () => {
  let daemon: Daemon
  let shared: string

  beforeAll(async () => {
    daemon = await startInProcess(
      {
        mcpServers: {
          plain: everything(),
          custom: everything({ roots: ['./first'] }),
          none: everything({ roots: false }),
        },
        // The workspace named on purpose: the root of a server whose settings name none.
      },
      { workspaceDeclared: true },
    )
    shared = dirname(daemon.configPath)
    await Promise.all(
      ['plain', 'custom', 'none'].map((name) => daemon.waitForStatus(name, 'ready')),
    )
  })
  afterAll(cleanup)

  const rootsText = async (server: string) => {
    const response = await daemon.api('/call', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tool: `mcp_${server}_get-roots-list`, arguments: {} }),
    })
    const body = (await response.json()) as { result: { content: Array<{ text: string }> } }
    return body.result.content.map((block) => block.text).join('\n')
  }

  it('lists the workspace directory as the root of a server whose settings name none', async () => {
    const text = await waitFor(async () => {
      const listed = await rootsText('plain')
      return listed.includes('1 total') ? listed : undefined
    })
    expect(text).toContain(`URI: ${pathToFileURL(daemon.workspace).href}`)
  })

  it('declares no roots to a server whose settings say false, which then offers no roots tool', async () => {
    const tools = (await (await daemon.api('/tools?server=none')).json()) as ToolInfo[]
    expect(tools.length).toBeGreaterThan(0)
    expect(tools.map((tool) => tool.tool)).not.toContain('get-roots-list')
  })

  it('tells a server its changed roots on reload without reconnecting, and the server asks again', async () => {
    expect(await rootsText('custom')).toContain(`URI: ${pathToFileURL(join(shared, 'first')).href}`)
    const before = (await daemon.servers()).find((server) => server.name === 'custom')
    await daemon.writeSettings({
      mcpServers: {
        plain: everything(),
        custom: everything({ roots: ['./second', '/srv/third'] }),
        none: everything({ roots: false }),
      },
    })
    const reload = (await (await daemon.api('/reload', { method: 'POST' })).json()) as {
      unchanged: string[]
    }
    expect(reload.unchanged).toContain('custom')
    // The server keeps the roots it was given until told they changed; then it asks again.
    const text = await waitFor(async () => {
      const listed = await rootsText('custom')
      return listed.includes('2 total') ? listed : undefined
    })
    expect(text).toContain(`URI: ${pathToFileURL(join(shared, 'second')).href}`)
    expect(text).toContain('URI: file:///srv/third')
    const after = (await daemon.servers()).find((server) => server.name === 'custom')
    expect(after?.restartCount).toBe(before?.restartCount)
  })
})
