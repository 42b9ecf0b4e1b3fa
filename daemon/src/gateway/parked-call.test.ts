import type { CallToolResult, ServerContext } from '@modelcontextprotocol/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ParkedCall, ROUND_WAIT_MS } from './parked-call.js'

/** The part of a request's context a parked call reads. */
function requestContext(): ServerContext {
  return {
    mcpReq: { _meta: {}, signal: new AbortController().signal, notify: async () => {} },
  } as unknown as ServerContext
}

const question = {
  message: 'Your name?',
  requestedSchema: { type: 'object' as const, properties: { name: { type: 'string' as const } } },
}

/** A parked call whose call runs until `finish`, and the signal that call runs with. */
function parkedTask() {
  let gone = 0
  const parked = new ParkedCall('call-1', 'ask', 'agent', () => gone++)
  const callSignal = parked.callContext(requestContext()).mcpReq.signal
  let finish: (result: CallToolResult) => void = () => {}
  parked.start(() => new Promise((resolve) => (finish = resolve)))
  return {
    parked,
    callSignal,
    finish: (result: CallToolResult) => finish(result),
    gone: () => gone,
  }
}

describe('a parked call that became a task', () => {
  afterEach(() => vi.useRealTimers())

  it('ends the round waiting for it, and keeps later questions for tasks/get under their keys', async () => {
    const { parked } = parkedTask()
    const round = parked.round(requestContext())
    parked.detach()
    expect(await round).toEqual({ kind: 'detached' })
    expect(parked.isTask).toBe(true)
    expect(parked.pending()).toBeUndefined()
    const answer = parked.ask({ ...question, key: 'user_name' }, new AbortController().signal)
    expect(parked.pending()).toMatchObject({
      user_name: { method: 'elicitation/create', params: { message: 'Your name?' } },
    })
    parked.answer({ elsewhere: { action: 'decline' } })
    expect(Object.keys(parked.pending() ?? {})).toEqual(['user_name'])
    parked.answer({ user_name: { action: 'accept', content: { name: 'Ada' } } })
    expect(await answer).toEqual({ action: 'accept', content: { name: 'Ada' } })
    expect(parked.pending()).toBeUndefined()
  })

  it('gives the call up when its open questions are neither read nor answered within ROUND_WAIT_MS of the last read', () => {
    vi.useFakeTimers()
    const { parked, callSignal, gone } = parkedTask()
    parked.detach()
    void parked.ask(question, new AbortController().signal)
    vi.advanceTimersByTime(ROUND_WAIT_MS - 1)
    // The client reads the question: it has its whole bound again.
    expect(parked.pending()).toBeDefined()
    vi.advanceTimersByTime(ROUND_WAIT_MS - 1)
    expect(callSignal.aborted).toBe(false)
    vi.advanceTimersByTime(1)
    expect(callSignal.aborted).toBe(true)
    expect(gone()).toBe(1)
  })

  it('keeps a call whose questions were all answered running past ROUND_WAIT_MS, and lets go of it once it ends', async () => {
    vi.useFakeTimers()
    const { parked, callSignal, finish, gone } = parkedTask()
    parked.detach()
    void parked.ask(question, new AbortController().signal)
    parked.answer({ q0: { action: 'accept', content: { name: 'Ada' } } })
    vi.advanceTimersByTime(3 * ROUND_WAIT_MS)
    expect(callSignal.aborted).toBe(false)
    expect(gone()).toBe(0)
    finish({ content: [] })
    await vi.runAllTimersAsync()
    expect(gone()).toBe(1)
  })
})

describe('a parked call', () => {
  it("answers a question from what the client sent before it was asked, once, under the server's key", async () => {
    const parked = new ParkedCall('call-2', 'ask', 'agent', () => {})
    parked.prefill({ user_name: { action: 'accept', content: { name: 'Ada' } }, extra: 1 })
    const signal = new AbortController().signal
    expect(await parked.ask({ ...question, key: 'user_name' }, signal)).toEqual({
      action: 'accept',
      content: { name: 'Ada' },
    })
    expect(parked.pending()).toBeUndefined()
    // Used once: the server asking again under the key is a question for the client.
    void parked.ask({ ...question, key: 'user_name' }, signal)
    expect(Object.keys(parked.pending() ?? {})).toEqual(['user_name'])
  })
})
