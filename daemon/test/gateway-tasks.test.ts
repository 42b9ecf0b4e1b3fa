import {
  CreateTaskResultV2Schema,
  GetTaskResultV2Schema,
} from '@modelcontextprotocol/ext-tasks/core/v2'
import {
  createTaskSessionFromClient,
  resultFromTaskOutcome,
  type JsonRpcResponse,
  type RawClientDispatch,
} from '@modelcontextprotocol/ext-tasks/client'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TranscriptEvent } from '../src/protocol/index.js'
import { cleanup, fixture, startDaemon, waitFor, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'
import { openStream, type TestStream } from './stream-harness.js'
import {
  answerOf,
  gatewayToken,
  legacySession,
  modern,
  modernRequest,
  MODERN,
  newId,
  peekId,
  TASKS,
  WITH_TASKS,
  type RpcAnswer,
} from './tasks-wire.js'
import { sseMessages } from './sse.js'

/** A WebSocket client that may answer confirmations, subscribed to the default session. */
async function answerer(daemon: Daemon): Promise<TestStream> {
  const stream = await openStream(daemon)
  stream.send({ type: 'hello', client: { kind: 'webshell', label: 'WebShell tab' } })
  await stream.subscribe()
  return stream
}

type Asked = Extract<TranscriptEvent, { type: 'confirmation.requested' }>

/** The confirmation of the call that `stream` had not seen asked about before. */
function nextQuestion(stream: TestStream, seen: Set<string>): Promise<Asked> {
  return waitFor(
    () => {
      const asked = stream.events.find(
        (e): e is Asked => e.type === 'confirmation.requested' && !seen.has(e.callId),
      )
      if (asked !== undefined) seen.add(asked.callId)
      return asked
    },
    15_000,
    'a confirmation question',
  )
}

async function answer(stream: TestStream, callId: string, outcome: 'allow_once' | 'deny') {
  const ref = `r${newId()}`
  stream.send({ type: 'answer', ref, callId, outcome })
  return stream.reply(ref)
}

/** Polls `tasks/get` until the task has left `working`. */
function settled(get: () => Promise<RpcAnswer>): Promise<Record<string, unknown>> {
  return waitFor(
    async () => {
      const { body } = await get()
      return body.result?.status === 'working' ? undefined : body.result
    },
    20_000,
    'the task to settle',
  )
}

function taskEvent(events: TranscriptEvent[], taskId: string) {
  return events.find((e) => e.type === 'call.task' && e.taskId === taskId)
}

// `fx` and `tr` declare the Tasks extension, so their tools may run as tasks; `plain`'s never do.
const settings = (taskAfterMs: number) => ({
  mcpServers: {
    fx: fixture(['--tasks-extension'], { trust: false }),
    tr: fixture(['--tasks-extension', '--elicit-tool']),
    plain: fixture([], { trust: false }),
  },
  gateway: { taskAfterMs },
})

describe('Tasks on the gateway', () => {
  let daemon: Daemon
  let token: string
  let stream: TestStream
  const seen = new Set<string>()
  /** A 2026-07-28 `tools/call` of this file's client, declaring the Tasks extension by default. */
  const callTool = (
    name: string,
    args: Record<string, unknown>,
    capabilities: Record<string, unknown> = WITH_TASKS,
  ) => modern(daemon, token, 'tools/call', { name, arguments: args }, capabilities)

  beforeAll(async () => {
    daemon = await startInProcess(settings(1_500))
    await daemon.waitForStatus('fx', 'ready')
    await daemon.waitForStatus('tr', 'ready')
    await daemon.waitForStatus('plain', 'ready')
    token = await gatewayToken(daemon, 'agent')
    stream = await answerer(daemon)
  })
  afterAll(cleanup)

  it('declares the Tasks extension in server/discover, under extensions only', async () => {
    const { body } = await modern(daemon, token, 'server/discover')
    const capabilities = body.result?.capabilities as Record<string, unknown>
    expect(capabilities.extensions).toEqual({ [TASKS]: {} })
    expect(capabilities).not.toHaveProperty('tasks')
  })

  it('answers a confirmation-gated call with a stored task, which tasks/get follows to the result once the person allows it', async () => {
    const call = await callTool('mcp_fx_slow', { steps: 1, delayMs: 0 })
    const task = CreateTaskResultV2Schema.parse(call.body.result)
    expect(task).toMatchObject({ resultType: 'task', status: 'working', ttlMs: null })
    expect(task.taskId).toMatch(/^[0-9a-f-]{36}$/)
    // Stored before the client heard of it.
    expect(taskEvent(await daemon.events(), task.taskId)).toMatchObject({
      client: { id: 'mcp:agent', kind: 'mcp', label: 'agent (gateway)' },
    })
    const get = () => modern(daemon, token, 'tasks/get', { taskId: task.taskId }, WITH_TASKS)
    expect((await get()).body.result).toMatchObject({
      status: 'working',
      statusMessage: 'waiting for confirmation in Ferry',
      resultType: 'complete',
    })
    const asked = await nextQuestion(stream, seen)
    expect(asked.tool).toBe('mcp_fx_slow')
    expect((await answer(stream, asked.callId, 'allow_once')).ok).toBe(true)
    const done = GetTaskResultV2Schema.parse(await settled(get))
    expect(done).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'done' }], resultType: 'complete' },
    })
  })

  it('serves the official Tasks client: its call becomes a task that settles with the result once the person allows it', async () => {
    const url = new URL('mcp', daemon.info.url)
    const clientInfo = { name: 'ext-tasks-host', version: '1' }
    const client = new Client(clientInfo, { versionNegotiation: { mode: 'auto' } })
    await client.connect(
      new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    )
    const methods: string[] = []
    // The SDK client's codecs refuse task results, so the Tasks client sends its requests itself.
    const rawDispatch: RawClientDispatch = async (request, options = {}) => {
      const message: Record<string, unknown> = {
        jsonrpc: '2.0',
        id: newId(),
        ...(request as Record<string, unknown>),
      }
      const method = String(message.method)
      methods.push(method)
      const params = (message.params ?? {}) as Record<string, unknown>
      const headers = new Headers({
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
        'mcp-protocol-version': MODERN,
        'mcp-method': method,
      })
      if (method === 'tools/call') headers.set('mcp-name', String(params.name))
      for (const [key, value] of Object.entries(options.context?.headers ?? {}))
        headers.set(key, value)
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify(message),
        signal: options.signal ?? null,
      })
      const { body } = await answerOf(response)
      return (
        body.error === undefined
          ? { kind: 'result', result: body.result ?? {} }
          : { kind: 'error', error: body.error }
      ) as JsonRpcResponse
    }
    const session = createTaskSessionFromClient(client, {
      endpointId: 'ferry-gateway',
      rawDispatch,
      v2RequestFraming: { protocolVersion: MODERN, clientInfo, clientCapabilities: {} },
    })
    try {
      const execution = await session.callTool('mcp_fx_slow', { steps: 1, delayMs: 0 })
      expect(execution.kind).toBe('task')
      const asked = await nextQuestion(stream, seen)
      expect((await answer(stream, asked.callId, 'allow_once')).ok).toBe(true)
      const { outcome } = await execution.settle()
      expect(outcome.status).toBe('completed')
      expect(resultFromTaskOutcome(outcome)).toMatchObject({
        content: [{ type: 'text', text: 'done' }],
      })
      expect(methods[0]).toBe('tools/call')
      expect(methods.slice(1).every((method) => method === 'tasks/get')).toBe(true)
    } finally {
      await session.close()
      await client.close()
    }
  })

  it('gives the denial of a task as its completed error result, naming who denied it', async () => {
    const call = await callTool('mcp_fx_slow', { steps: 1, delayMs: 0 })
    const taskId = call.body.result?.taskId as string
    const asked = await nextQuestion(stream, seen)
    expect((await answer(stream, asked.callId, 'deny')).ok).toBe(true)
    const get = () => modern(daemon, token, 'tasks/get', { taskId }, WITH_TASKS)
    expect(await settled(get)).toMatchObject({
      status: 'completed',
      result: {
        isError: true,
        content: [
          {
            type: 'text',
            text: 'mcp_fx_slow was denied in Ferry by WebShell tab; it was not called',
          },
        ],
      },
    })
  })

  it('lets tasks/cancel withdraw the confirmation: the call ends cancelled by the client and a later answer finds nothing to answer', async () => {
    const call = await callTool('mcp_fx_slow', { steps: 1, delayMs: 0 })
    const taskId = call.body.result?.taskId as string
    const asked = await nextQuestion(stream, seen)
    const cancel = await modern(daemon, token, 'tasks/cancel', { taskId }, WITH_TASKS)
    expect(cancel).toMatchObject({ status: 200, body: { result: { resultType: 'complete' } } })
    const get = () => modern(daemon, token, 'tasks/get', { taskId }, WITH_TASKS)
    expect(await settled(get)).toMatchObject({
      status: 'cancelled',
      statusMessage: 'mcp_fx_slow was cancelled by this client',
    })
    const ended = await daemon.waitForEvent(
      (e) => e.type === 'call.cancelled' && e.callId === asked.callId,
    )
    expect(ended.client).toMatchObject({ id: 'mcp:agent', kind: 'mcp' })
    expect(await answer(stream, asked.callId, 'allow_once')).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    })
  })

  it('answers tasks/list with -32601 and an unknown task id with -32602', async () => {
    const list = await modern(daemon, token, 'tasks/list', {}, WITH_TASKS)
    expect(list.body.error?.code).toBe(-32601)
    const unknown = await modern(daemon, token, 'tasks/get', { taskId: 'no-such-task' }, WITH_TASKS)
    expect(unknown.body.error).toMatchObject({ code: -32602 })
    expect(unknown.body.error?.message).toContain('no task "no-such-task"')
    const legacy = await legacySession(daemon, token, WITH_TASKS)
    expect((await legacy.request('tasks/list')).body.error?.code).toBe(-32601)
  })

  it('refuses tasks/get, tasks/update and tasks/cancel with 400 and -32021 from a client that did not declare the extension', async () => {
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const refused = await modern(daemon, token, method, { taskId: 'any-task' })
      expect(refused.status, method).toBe(400)
      expect(refused.body.error, method).toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { extensions: WITH_TASKS.extensions } },
      })
      expect(refused.body.error?.message).toContain('declare the io.modelcontextprotocol/tasks')
    }
  })

  it("keeps a task hidden from another client's token: tasks/get, tasks/update and tasks/cancel find no such task", async () => {
    const other = await gatewayToken(daemon, 'other-agent')
    const call = await callTool('mcp_fx_slow', { steps: 1, delayMs: 0 })
    const taskId = call.body.result?.taskId as string
    const asked = await nextQuestion(stream, seen)
    for (const method of ['tasks/get', 'tasks/cancel', 'tasks/update']) {
      const refused = await modern(daemon, other, method, { taskId }, WITH_TASKS)
      expect(refused.body.error, method).toMatchObject({ code: -32602 })
    }
    // The other client's cancel changed nothing: the owner still sees it waiting, then done.
    const get = () => modern(daemon, token, 'tasks/get', { taskId }, WITH_TASKS)
    expect((await get()).body.result).toMatchObject({ status: 'working' })
    expect((await answer(stream, asked.callId, 'allow_once')).ok).toBe(true)
    expect(await settled(get)).toMatchObject({ status: 'completed' })
  })

  it('acknowledges tasks/update with input responses', async () => {
    const call = await callTool('mcp_fx_slow', { steps: 1, delayMs: 0 })
    const taskId = call.body.result?.taskId as string
    const asked = await nextQuestion(stream, seen)
    const update = await modern(
      daemon,
      token,
      'tasks/update',
      { taskId, inputResponses: { confirm: { action: 'accept', content: { ok: true } } } },
      WITH_TASKS,
    )
    expect(update).toMatchObject({ status: 200, body: { result: { resultType: 'complete' } } })
    expect((await answer(stream, asked.callId, 'allow_once')).ok).toBe(true)
  })

  it("puts the questions a task's call asks on tasks/get as input_required, and tasks/update brings the answers", async () => {
    // The client takes questions (form elicitation) as well as tasks.
    const asks = { ...WITH_TASKS, elicitation: {} }
    // ask_user works 2.5 s before its first question: past gateway.taskAfterMs (1.5 s here).
    const call = await callTool('mcp_tr_ask_user', { rounds: 2, delayMs: 2_500 }, asks)
    const { taskId } = CreateTaskResultV2Schema.parse(call.body.result)
    const get = () => modern(daemon, token, 'tasks/get', { taskId }, asks)
    const update = (inputResponses: Record<string, unknown>) =>
      modern(daemon, token, 'tasks/update', { taskId, inputResponses }, asks)
    const asked = (key: string) =>
      waitFor(
        async () => {
          const task = (await get()).body.result
          const open = (task?.inputRequests ?? {}) as Record<string, unknown>
          return task?.status === 'input_required' && key in open ? task : undefined
        },
        20_000,
        `the task's question ${key}`,
      )
    expect(await asked('q0')).toMatchObject({
      status: 'input_required',
      resultType: 'complete',
      inputRequests: {
        q0: {
          method: 'elicitation/create',
          params: { message: 'What is your name? (question 1)' },
        },
      },
    })
    // An answer to no open question changes nothing.
    expect((await update({ elsewhere: { action: 'decline' } })).body.result).toMatchObject({
      resultType: 'complete',
    })
    expect((await get()).body.result).toMatchObject({ status: 'input_required' })
    const ada = { action: 'accept', content: { name: 'Ada' } }
    expect((await update({ q0: ada })).body.result).toMatchObject({ resultType: 'complete' })
    const second = await asked('q1')
    expect(Object.keys(second.inputRequests as object)).toEqual(['q1'])
    const grace = { action: 'accept', content: { name: 'Grace' } }
    await update({ q1: grace })
    const done = await waitFor(
      async () => {
        const task = (await get()).body.result
        return task?.status === 'completed' ? task : undefined
      },
      20_000,
      'the task to complete',
    )
    expect(done).toMatchObject({ result: { structuredContent: { answers: [ada, grace] } } })
  })

  it('gives a task for a call that runs longer than gateway.taskAfterMs, and the plain result for one that ends sooner', async () => {
    const quick = await callTool('mcp_tr_echo', { text: 'at once' })
    expect(quick.body.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'at once' }],
    })
    const long = await callTool('mcp_tr_slow', { steps: 30, delayMs: 100 })
    const task = CreateTaskResultV2Schema.parse(long.body.result)
    expect(task.statusMessage).toBeUndefined()
    const get = () => modern(daemon, token, 'tasks/get', { taskId: task.taskId }, WITH_TASKS)
    expect(await settled(get)).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'done' }] },
    })
  })

  it('gives a task to a legacy session whose initialize declared the extension, and keeps the call when the client cancels its answered request', async () => {
    const legacy = await legacySession(daemon, token, WITH_TASKS)
    const id = peekId()
    const call = await legacy.request('tools/call', {
      name: 'mcp_fx_slow',
      arguments: { steps: 1, delayMs: 0 },
    })
    expect(call.body.result).toMatchObject({ resultType: 'task', status: 'working' })
    const taskId = call.body.result?.taskId as string
    const asked = await nextQuestion(stream, seen)
    // The request was answered with the task: cancelling it no longer reaches the call.
    expect(await legacy.notify('notifications/cancelled', { requestId: id })).toBe(202)
    const get = () => legacy.request('tasks/get', { taskId })
    expect((await get()).body.result).toMatchObject({
      status: 'working',
      statusMessage: 'waiting for confirmation in Ferry',
    })
    expect((await answer(stream, asked.callId, 'allow_once')).ok).toBe(true)
    expect(await settled(get)).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'done' }], resultType: 'complete' },
    })
  })

  it('keeps the request of a call of a tool that never runs as a task open while the person decides, with progress, for a client that declared the extension', async () => {
    const before = (await daemon.events()).length
    const response = modernRequest(
      daemon,
      token,
      'tools/call',
      { name: 'mcp_plain_slow', arguments: { steps: 1, delayMs: 0 } },
      WITH_TASKS,
      { progressToken: 'wait' },
    )
    const asked = await nextQuestion(stream, seen)
    expect((await answer(stream, asked.callId, 'allow_once')).ok).toBe(true)
    const text = await (await response).text()
    // Stream order: the waiting progress came before the answer, which is the call's own result.
    const messages = sseMessages(text)
    expect(messages[0]).toMatchObject({
      method: 'notifications/progress',
      params: { progressToken: 'wait', message: 'waiting for confirmation in Ferry' },
    })
    expect(messages.at(-1)).toMatchObject({
      result: { resultType: 'complete', content: [{ type: 'text', text: 'done' }] },
    })
    // On a legacy session too, and past gateway.taskAfterMs (1.5 s here): 20 steps of 100 ms.
    const legacy = await legacySession(daemon, token, WITH_TASKS)
    const long = legacy.request('tools/call', {
      name: 'mcp_plain_slow',
      arguments: { steps: 20, delayMs: 100 },
    })
    const legacyAsked = await nextQuestion(stream, seen)
    expect((await answer(stream, legacyAsked.callId, 'allow_once')).ok).toBe(true)
    expect((await long).body.result).toMatchObject({ content: [{ type: 'text', text: 'done' }] })
    expect((await long).body.result).not.toHaveProperty('taskId')
    const after = (await daemon.events()).slice(before)
    expect(after.filter((e) => e.type === 'call.task')).toEqual([])
  })

  it('never gives a task to a client that does not declare the extension, in either era', async () => {
    const before = (await daemon.events()).length
    const plainModern = modern(daemon, token, 'tools/call', {
      name: 'mcp_fx_slow',
      arguments: { steps: 1, delayMs: 0 },
    })
    const modernAsked = await nextQuestion(stream, seen)
    expect((await answer(stream, modernAsked.callId, 'allow_once')).ok).toBe(true)
    expect((await plainModern).body.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'done' }],
    })
    const legacy = await legacySession(daemon, token, {})
    const plainLegacy = legacy.request('tools/call', {
      name: 'mcp_tr_slow',
      arguments: { steps: 25, delayMs: 100 },
    })
    expect((await plainLegacy).body.result).toMatchObject({
      content: [{ type: 'text', text: 'done' }],
    })
    expect((await plainLegacy).body.result).not.toHaveProperty('taskId')
    const after = (await daemon.events()).slice(before)
    expect(after.filter((e) => e.type === 'call.task')).toEqual([])
  })
})

describe('Tasks across a restart', () => {
  afterAll(cleanup)

  it('answers tasks/get for a finished task after a restart, and reports a task the daemon died during as failed', async () => {
    const first = await startDaemon(settings(60_000))
    await first.waitForStatus('fx', 'ready')
    const token = await gatewayToken(first, 'agent')
    const stream = await answerer(first)
    const seen = new Set<string>()
    const start = async (daemon: Daemon) => {
      const call = await modern(
        daemon,
        token,
        'tools/call',
        { name: 'mcp_fx_slow', arguments: { steps: 1, delayMs: 0 } },
        WITH_TASKS,
      )
      return call.body.result?.taskId as string
    }
    const get = (daemon: Daemon, taskId: string) => () =>
      modern(daemon, token, 'tasks/get', { taskId }, WITH_TASKS)

    const finished = await start(first)
    const asked = await nextQuestion(stream, seen)
    expect((await answer(stream, asked.callId, 'allow_once')).ok).toBe(true)
    const result = await settled(get(first, finished))
    const pending = await start(first)
    const pendingCall = (await nextQuestion(stream, seen)).callId
    // Killed, as a crash or a power cut would end it: the pending call is left open.
    const exited = new Promise((resolve) => first.process.once('exit', resolve))
    first.process.kill('SIGKILL')
    await exited

    const second = await startDaemon(settings(60_000), { stateDir: first.stateDir })
    const events = await second.events()
    expect(events.find((e) => e.type === 'call.interrupted')).toMatchObject({ callId: pendingCall })
    expect((await get(second, finished)()).body.result).toEqual(result)
    expect((await get(second, pending)()).body.result).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: expect.stringContaining('Ferry stopped') },
    })
    const stranger = await gatewayToken(second, 'stranger')
    const hidden = await modern(second, stranger, 'tasks/get', { taskId: finished }, WITH_TASKS)
    expect(hidden.body.error).toMatchObject({ code: -32602 })
  })
})
