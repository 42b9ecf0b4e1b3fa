// An MCP App's tool calls against a real daemon and fixture servers, through a real WebSocket
// client speaking for the App: only tools of its own server whose visibility includes `app`, only
// while the App is live, each through the one call path (confirmations included) and recorded as
// the App's, with the result handed back.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TranscriptEvent } from '../src/protocol/index.js'
import { cleanup, type Daemon } from './harness.js'
import { appCall, openTab, refusal, startAppDaemon, type Tab } from './app-requests-rig.js'

let daemon: Daemon

beforeAll(async () => {
  daemon = await startAppDaemon()
})

afterAll(cleanup)

const requestedBy =
  (parentCallId: string, serverTool: string) =>
  (event: TranscriptEvent): event is Extract<TranscriptEvent, { type: 'call.requested' }> =>
    event.type === 'call.requested' &&
    event.app?.parentCallId === parentCallId &&
    event.serverTool === serverTool

/** Answers the confirmation of the App's call of `serverTool` over the stream. */
async function answer(tab: Tab, parent: string, serverTool: string, outcome: string) {
  const requested = await tab.event(
    (e) =>
      requestedBy(parent, serverTool)(e) &&
      !tab.stream.events.some((r) => r.type === 'confirmation.resolved' && r.callId === e.callId),
    `${serverTool} requested`,
  )
  const callId = (requested as { callId: string }).callId
  await tab.event(
    (e) => e.type === 'confirmation.requested' && e.callId === callId,
    'its confirmation',
  )
  expect(await tab.command({ type: 'answer', callId, outcome })).toMatchObject({ ok: true })
  return callId
}

describe('an MCP App calling tools', () => {
  it('cannot be opened for a call without an App, an unknown call, or by a read-only client, and answers a request that does not fit', async () => {
    const tab = await openTab(daemon)
    const plain = await daemon.api('/call', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'mcp_host_echo', arguments: { text: 'x' } }),
    })
    const { id } = (await plain.json()) as { id: string }
    expect(refusal(await tab.command({ type: 'app_open', callId: id }))).toEqual({
      code: 'bad_request',
      message: `call ${id} has no App: its result shows as plain content`,
    })
    expect(refusal(await tab.command({ type: 'app_open', callId: 'nope' })).code).toBe('not_found')
    const reader = await openTab(daemon, true)
    const shown = await appCall(daemon)
    expect(refusal(await reader.command({ type: 'app_open', callId: shown })).code).toBe(
      'forbidden',
    )
    const appId = await tab.open(shown)
    expect(appId).toMatch(/^[0-9a-f]{16}$/)
    // A request that does not fit is answered by its ref, naming what to fix.
    const unknown = await tab.command({ type: 'app_request', appId, method: 'sampling/create' })
    expect(refusal(unknown)).toMatchObject({
      code: 'bad_request',
      message: expect.stringContaining(
        "method: Invalid discriminator value. Expected 'tools/call'",
      ),
    })
    const unnamed = await tab.ask(appId, 'tools/call', {} as { name: string })
    expect(refusal(unnamed)).toMatchObject({
      code: 'bad_request',
      message: expect.stringContaining('params.name'),
    })
  })

  it("runs the App's call of its server's tool as the App's, asks first when it acts, and answers the result", async () => {
    const tab = await openTab(daemon)
    const parent = await appCall(daemon)
    const appId = await tab.open(parent)

    // Read-only and visible to models and Apps: no question.
    const shown = await tab.ask(appId, 'tools/call', { name: 'app_show', arguments: { text: 'a' } })
    expect(shown).toMatchObject({
      ok: true,
      result: { content: [{ type: 'text', text: 'app_show: a' }] },
    })

    // App-only and not read-only: recorded as the App's, confirmed over the stream, then run.
    const pending = tab.ask(appId, 'tools/call', {
      name: 'app_act_write',
      arguments: { text: 'b' },
    })
    const callId = await answer(tab, parent, 'app_act_write', 'allow_once')
    const reply = await pending
    expect(reply).toMatchObject({
      ok: true,
      callId,
      result: { content: [{ type: 'text', text: 'app_act_write: b' }] },
    })
    const requested = await tab.event((e) => e.type === 'call.requested' && e.callId === callId)
    expect(requested).toMatchObject({
      tool: 'mcp_host_app_act_write',
      server: 'host',
      serverTool: 'app_act_write',
      arguments: { text: 'b' },
      app: { parentCallId: parent },
      client: { kind: 'webshell', label: 'App tab' },
    })

    // A denial is the usual error result, handed to the App.
    const denied = tab.ask(appId, 'tools/call', { name: 'app_act_write', arguments: { text: 'c' } })
    const deniedId = await answer(tab, parent, 'app_act_write', 'deny')
    expect(await denied).toMatchObject({
      ok: true,
      callId: deniedId,
      result: { isError: true, content: [{ type: 'text', text: 'denied by user' }] },
    })
  })

  it("refuses a model-only tool and another server's tool, saying why, and records neither", async () => {
    const tab = await openTab(daemon)
    const parent = await appCall(daemon)
    const appId = await tab.open(parent)
    expect(refusal(await tab.ask(appId, 'tools/call', { name: 'app_act_model_only' }))).toEqual({
      code: 'forbidden',
      message: 'tool "app_act_model_only" is not visible to Apps (visibility ["model"])',
    })
    expect(refusal(await tab.ask(appId, 'tools/call', { name: 'mcp_other_echo' }))).toEqual({
      code: 'tool_not_found',
      message:
        'server "host" has no tool "mcp_other_echo"; an App may call only its own server\'s tools',
    })
    // Its own server's echo is allowed; its answer comes after the refusals were (not) recorded.
    const echoed = await tab.ask(appId, 'tools/call', { name: 'echo', arguments: { text: 'ok' } })
    expect(echoed).toMatchObject({ ok: true, result: { content: [{ text: 'ok' }] } })
    const fromApp = (await daemon.events()).filter(
      (e) => e.type === 'call.requested' && e.app?.parentCallId === parent,
    )
    expect(fromApp.map((e) => (e as { serverTool: string }).serverTool)).toEqual(['echo'])
  })

  it('refuses requests after teardown, after replacement and after the connection closed', async () => {
    const tab = await openTab(daemon)
    const parent = await appCall(daemon)
    const first = await tab.open(parent)
    const second = await tab.open(parent)
    const call = { name: 'app_show', arguments: { text: 'late' } }
    expect(refusal(await tab.ask(first, 'tools/call', call))).toEqual({
      code: 'not_found',
      message: `App ${first} is no longer live: it was replaced when its tab opened the App of call ${parent} again; its requests are refused`,
    })
    expect(await tab.ask(second, 'tools/call', call)).toMatchObject({ ok: true })
    expect(await tab.command({ type: 'app_close', appId: second })).toMatchObject({ ok: true })
    expect(refusal(await tab.ask(second, 'tools/call', call))).toEqual({
      code: 'not_found',
      message: `App ${second} is no longer live: its tab tore it down; its requests are refused`,
    })

    // A second tab shows the same App on its own; when it goes, its App id means nothing anywhere.
    const other = await openTab(daemon)
    const theirs = await other.open(parent)
    expect(await other.ask(theirs, 'tools/call', call)).toMatchObject({ ok: true })
    other.stream.ws.close()
    await other.stream.closed
    expect(refusal(await tab.ask(theirs, 'tools/call', call))).toMatchObject({
      code: 'not_found',
      message: expect.stringContaining('torn down or replaced'),
    })
  })

  it('refuses the requests of an App whose session was deleted, saying so', async () => {
    const created = await daemon.api('/sessions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'short-lived' }),
    })
    const { id } = (await created.json()) as { id: string }
    const tab = await openTab(daemon, false, id)
    const appId = await tab.open(await appCall(daemon, 'shown', id))
    const call = { name: 'app_show', arguments: { text: 'before' } }
    expect(await tab.ask(appId, 'tools/call', call)).toMatchObject({ ok: true })

    expect((await daemon.api(`/sessions/${id}`, { method: 'DELETE' })).status).toBe(200)
    expect(refusal(await tab.ask(appId, 'tools/call', call))).toEqual({
      code: 'not_found',
      message: `App ${appId} is no longer live: its session was deleted; its requests are refused`,
    })
    expect(
      refusal(await tab.ask(appId, 'ui/message', { role: 'user', content: [] })),
    ).toMatchObject({
      code: 'not_found',
    })
    tab.stream.ws.close()
  })

  it('cancels the calls an App still runs when it is torn down, and when its tab goes away', async () => {
    const tab = await openTab(daemon)
    const parent = await appCall(daemon)
    for (const end of ['app_close', 'connection'] as const) {
      const speaker = end === 'app_close' ? tab : await openTab(daemon)
      const appId = await speaker.open(parent)
      const waiting = speaker.ask(appId, 'tools/call', { name: 'app_act_write' })
      // A tab that went away hears nothing back.
      waiting.catch(() => {})
      const requested = await tab.event(
        (e) =>
          requestedBy(parent, 'app_act_write')(e) &&
          !tab.stream.events.some(
            (ended) => ended.type === 'call.cancelled' && ended.callId === e.callId,
          ),
        'a call waiting for its confirmation',
      )
      const callId = (requested as { callId: string }).callId
      await tab.event((e) => e.type === 'confirmation.requested' && e.callId === callId)
      if (end === 'app_close') {
        await speaker.command({ type: 'app_close', appId })
        expect(refusal(await waiting).code).toBe('tool_cancelled')
      } else {
        speaker.stream.ws.close()
      }
      const cancelled = await tab.event((e) => e.type === 'call.cancelled' && e.callId === callId)
      expect(cancelled.client).toMatchObject({ kind: 'webshell' })
    }
  })
})
