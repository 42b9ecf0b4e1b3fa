// A call the server refuses until the person opens a page (-32042): the page is asked as a
// URL-mode question, and the call is sent again once the server says the page's work is done
// (`notifications/elicitation/complete`), which also closes the question if it is still open.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PAGE_URL } from '../../e2e/fixtures/url-required-tools.js'
import { PAGE_DONE } from '../src/mcp/page-completions.js'
import { cleanup, fixture, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'
import { answerer, answerInput, endOf, nextInput, resolvedOf, startCall } from './inputs-rig.js'

let daemon: Daemon

beforeAll(async () => {
  // One server per test: a server remembers that its page was done.
  daemon = await startInProcess({
    mcpServers: {
      opened: fixture(['--url-required', '--era', 'legacy']),
      unanswered: fixture(['--url-required', '--era', 'legacy']),
      declined: fixture(['--url-required', '--era', 'legacy']),
      asked: fixture(['--url-required', '--era', 'legacy']),
    },
  })
  for (const name of ['opened', 'unanswered', 'declined', 'asked']) {
    await daemon.waitForStatus(name, 'ready')
  }
})
afterAll(cleanup)

const finishPage = (server: string, args: Record<string, unknown> = {}) =>
  daemon.api('/call', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tool: `mcp_${server}_finish_page`, arguments: args }),
  })

describe('a call that needs a page opened first (-32042)', () => {
  it('asks the person to open the page, then calls again once the server says it is done', async () => {
    const tab = await answerer(daemon)
    const { callId } = await startCall(tab, 'mcp_opened_needs_page')
    const input = await nextInput(tab, callId)
    expect(input).toMatchObject({
      kind: 'url',
      url: PAGE_URL,
      urlOrigin: 'https://auth.example.com:8443',
      message: 'Sign in to the fixture first',
    })
    expect((await answerInput(tab, input.inputId, { action: 'accept' })).ok).toBe(true)
    expect((await finishPage('opened')).status).toBe(200)
    // The first call was refused; the second, after the page, answered.
    expect((await endOf(tab, callId)).text).toBe('signed in (call 2)')
    tab.ws.close()
  })

  it("closes the page's question when the server says it is done before anyone answered", async () => {
    const tab = await answerer(daemon)
    const { callId } = await startCall(tab, 'mcp_unanswered_needs_page')
    const input = await nextInput(tab, callId)
    expect((await finishPage('unanswered')).status).toBe(200)
    expect(await resolvedOf(tab, input.inputId)).toMatchObject({
      action: 'cancel',
      reason: PAGE_DONE,
    })
    expect((await endOf(tab, callId)).text).toBe('signed in (call 2)')
    tab.ws.close()
  })

  it('fails the call, saying which page and why, when the person declines to open it', async () => {
    const tab = await answerer(daemon)
    const { callId } = await startCall(tab, 'mcp_declined_needs_page')
    const input = await nextInput(tab, callId)
    await answerInput(tab, input.inputId, { action: 'decline' })
    const { event } = await endOf(tab, callId)
    expect(event).toMatchObject({ type: 'call.failed', error: { code: 'upstream_error' } })
    expect(JSON.stringify(event)).toContain(
      `needs a page opened before needs_page can run (${PAGE_URL}), and it was not`,
    )
    tab.ws.close()
  })

  it("closes a URL elicitation still open when the server says its page's work is done", async () => {
    const tab = await answerer(daemon)
    const { callId } = await startCall(tab, 'mcp_asked_ask_page')
    const input = await nextInput(tab, callId)
    expect(input).toMatchObject({ kind: 'url', url: PAGE_URL })
    expect((await finishPage('asked', { ask: true })).status).toBe(200)
    expect(await resolvedOf(tab, input.inputId)).toMatchObject({
      action: 'cancel',
      reason: PAGE_DONE,
    })
    // The server hears the question was withdrawn, with the reason.
    const { text } = await endOf(tab, callId)
    expect(JSON.parse(text)).toMatchObject({
      action: 'cancel',
      _meta: { 'ferry/reason': PAGE_DONE },
    })
    tab.ws.close()
  })
})
