import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { wireTapPath } from '../../e2e/fixtures/paths.js'
import type { CallStreamLine, ToolInfo, TranscriptEvent } from '../src/protocol/index.js'
import { MIN_TASK_POLL_MS } from '../src/mcp/task-call.js'
import { answerInput, answerer, endOf, nextInput, startCall } from './inputs-rig.js'
import {
  cleanup,
  rawLegacyServerPath,
  readJsonLines,
  tempDir,
  waitFor,
  type Daemon,
} from './harness.js'
import { startInProcess } from './in-process.js'

const everything = fileURLToPath(
  new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
)
const RESEARCH = 'mcp_everything_simulate-research-query'
/** Two clocks' millisecond rounding: a timer of n ms may look one or two short on the wire. */
const TIMER_SLACK_MS = 2

interface Relayed {
  to: 'server' | 'client'
  at: number
  message: {
    id?: number
    method?: string
    params?: { name?: string; taskId?: string; task?: unknown; arguments?: { topic?: string } }
    result?: {
      task?: { taskId?: string; pollInterval?: number }
      taskId?: string
      status?: string
      pollInterval?: number
    }
  }
}

/** Starts a streamed call; `lines` fills as they arrive, `done` settles when the stream ends. */
function streamCall(daemon: Daemon, body: Record<string, unknown>) {
  const lines: CallStreamLine[] = []
  const done = (async () => {
    const response = await daemon.api('/call', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' },
      body: JSON.stringify(body),
    })
    const decoder = new TextDecoder()
    let buffered = ''
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      buffered += decoder.decode(chunk, { stream: true })
      const parts = buffered.split('\n')
      buffered = parts.pop() ?? ''
      for (const part of parts) if (part.trim() !== '') lines.push(JSON.parse(part))
    }
  })()
  return { lines, done }
}

const progressMessages = (lines: CallStreamLine[]) =>
  lines.flatMap((line) => ('progress' in line ? [line.progress.message] : []))

describe('a tool that needs a task, on server-everything (2025-11-25)', () => {
  let daemon: Daemon
  let record: string

  beforeAll(async () => {
    record = `${await tempDir()}/wire.jsonl`
    daemon = await startInProcess({
      mcpServers: {
        everything: {
          command: process.execPath,
          args: [wireTapPath, record, process.execPath, everything, 'stdio'],
          trust: true,
        },
      },
    })
    await daemon.waitForStatus('everything', 'ready', 30_000)
  })
  afterAll(cleanup)

  it('is listed as a task tool that can be called', async () => {
    const tools = (await (await daemon.api('/tools?server=everything')).json()) as ToolInfo[]
    const research = tools.find((tool) => tool.name === RESEARCH)
    expect(research).toMatchObject({ taskSupport: 'required', notCallable: null })
    expect(tools.find((tool) => tool.tool === 'echo')).toMatchObject({
      taskSupport: null,
      notCallable: null,
    })
    const human = await daemon.cli(['tools', '--server', 'everything'])
    expect(human.stdout).toMatch(/^mcp_everything_simulate-research-query\s+everything\s+task\s/m)
  })

  it('runs as a task: its status shows as progress and its result lands in the transcript', async () => {
    const call = streamCall(daemon, { tool: RESEARCH, arguments: { topic: 'tides' }, id: 'tides' })
    await call.done
    const messages = progressMessages(call.lines)
    const stages = [
      'Gathering sources...',
      'Analyzing content...',
      'Synthesizing findings...',
      'Generating report...',
    ]
    // Each poll shows the status of its moment: the stages in order, each once, then 'completed'.
    // A stage that came and went between two polls on a busy machine is not seen.
    const seen = messages.slice(0, -1)
    expect(messages.at(-1)).toBe('completed')
    expect(seen.length).toBeGreaterThan(0)
    expect(seen).toEqual(stages.filter((stage) => seen.includes(stage)))
    const result = call.lines.at(-1)
    expect(result).toMatchObject({ result: { content: [{ type: 'text' }] } })
    const text = (result as { result: { content: { text: string }[] } }).result.content[0]?.text
    expect(text).toContain('# Research Report: tides')

    const events = await daemon.events()
    const ofCall = events.filter((e) => 'callId' in e && e.callId === 'tides')
    expect(ofCall.map((e) => e.type)).toContain('call.result')
    const stored = ofCall.filter(
      (e): e is Extract<TranscriptEvent, { type: 'call.progress' }> => e.type === 'call.progress',
    )
    expect(
      stored.map((e) => e.message).filter((message) => stages.includes(message ?? '')),
    ).toEqual(seen)

    const wire = await readJsonLines<Relayed>(record)
    const sent = wire.filter((r) => r.to === 'server').map((r) => r.message)
    const created = sent.find(
      (m) => m.method === 'tools/call' && m.params?.name === 'simulate-research-query',
    )
    expect(created?.params?.task).toEqual({})
    const answer = wire.find((r) => r.to === 'client' && r.message.id === created?.id)
    const taskId = answer?.message.result?.task?.taskId
    expect(typeof taskId).toBe('string')
    expect(sent.some((m) => m.method === 'tasks/get' && m.params?.taskId === taskId)).toBe(true)
    expect(sent.some((m) => m.method === 'tasks/result' && m.params?.taskId === taskId)).toBe(true)

    // Each poll waits the interval the server asked for in its last answer, and none comes sooner.
    const polls = wire.filter(
      (r) =>
        r.to === 'server' &&
        r.message.method === 'tasks/get' &&
        r.message.params?.taskId === taskId,
    )
    const asked = (poll: Relayed | undefined) => {
      const reply = wire.find((r) => r.to === 'client' && r.message.id === poll?.message.id)
      return reply?.message.result?.pollInterval ?? reply?.message.result?.task?.pollInterval
    }
    expect(polls.length).toBeGreaterThan(1)
    const firstInterval = asked(answer)
    expect(firstInterval).toBeGreaterThanOrEqual(MIN_TASK_POLL_MS)
    expect(polls[0]!.at - answer!.at).toBeGreaterThanOrEqual(firstInterval! - TIMER_SLACK_MS)
    for (let i = 1; i < polls.length; i++) {
      const interval = Math.max(MIN_TASK_POLL_MS, asked(polls[i - 1]) ?? firstInterval!)
      expect(polls[i]!.at - polls[i - 1]!.at).toBeGreaterThanOrEqual(interval - TIMER_SLACK_MS)
    }
  })

  it("puts the task's question to a person and continues with the answer", async () => {
    const tab = await answerer(daemon)
    const { callId } = await startCall(tab, RESEARCH, { topic: 'python', ambiguous: true })
    const input = await nextInput(tab, callId)
    expect(input.message).toContain('could have multiple interpretations')
    const reply = await answerInput(tab, input.inputId, {
      action: 'accept',
      content: { interpretation: 'snake' },
    })
    expect(reply).toMatchObject({ ok: true })
    const { text } = await endOf(tab, callId)
    expect(text).toContain('# Research Report: python (snake)')
    const statuses = tab.events.flatMap((e) =>
      e.type === 'call.progress' && e.callId === callId ? [e.message] : [],
    )
    expect(statuses).toContain(
      'input required: Found multiple interpretations for "python". Requesting clarification...',
    )
    tab.ws.close()
  })

  it('cancels the task on the server when the call is cancelled', async () => {
    const call = streamCall(daemon, { tool: RESEARCH, arguments: { topic: 'reefs' }, id: 'reefs' })
    await waitFor(() => progressMessages(call.lines).length > 0, 15_000, 'the first status')
    const cancel = await daemon.api('/calls/reefs/cancel', { method: 'POST' })
    expect(cancel.status).toBe(200)
    await call.done
    const events = await daemon.events()
    const end = events.filter((e) => 'callId' in e && e.callId === 'reefs').at(-1)
    expect(end?.type).toBe('call.cancelled')

    // The call ends once the server has answered the cancel, so it is on the wire by now.
    const wire = await readJsonLines<Relayed>(record)
    const created = wire.find(
      (r) =>
        r.to === 'server' &&
        r.message.method === 'tools/call' &&
        r.message.params?.arguments?.topic === 'reefs',
    )
    const taskId = wire.find((r) => r.to === 'client' && r.message.id === created?.message.id)
      ?.message.result?.task?.taskId
    const cancelSent = wire.find(
      (r) =>
        r.to === 'server' &&
        r.message.method === 'tasks/cancel' &&
        r.message.params?.taskId === taskId,
    )
    expect(cancelSent).toBeDefined()
    const cancelAnswer = wire.find(
      (r) => r.to === 'client' && r.message.id === cancelSent?.message.id,
    )
    expect(cancelAnswer?.message.result).toMatchObject({ taskId, status: 'cancelled' })
  })
})

describe('a tool that needs a task, on a server that declares no task support', () => {
  let daemon: Daemon
  let record: string

  beforeAll(async () => {
    record = `${await tempDir()}/record.jsonl`
    daemon = await startInProcess({
      mcpServers: {
        raw: {
          command: process.execPath,
          args: [rawLegacyServerPath, '--task-tool', '--record', record],
          trust: true,
        },
      },
    })
    await daemon.waitForStatus('raw', 'ready')
  })
  afterAll(cleanup)

  it('is called plainly, as a client may not send a task the server did not offer', async () => {
    const listed = await daemon.cli(['tools', '--server', 'raw', '--json'])
    const tools = JSON.parse(listed.stdout) as ToolInfo[]
    expect(tools.find((tool) => tool.tool === 'task_only')).toMatchObject({
      taskSupport: 'required',
      notCallable: null,
    })
    const called = await daemon.cli(['call', 'mcp_raw_task_only', '{}'])
    expect(called.code, called.stderr).toBe(0)
    expect(called.stdout).toContain('task_only')
    const calls = (await readJsonLines<Record<string, unknown>>(record)).filter(
      (entry) => entry.method === 'tools/call',
    )
    expect(calls).toEqual([expect.objectContaining({ name: 'task_only' })])
    expect(calls[0]).not.toHaveProperty('task')
  })
})
