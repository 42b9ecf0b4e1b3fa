// A 2026-07-28 server that asks for input before it answers a prompt get: its question goes to the
// people in the session, as a call's does, and the prompt comes once it is answered; with nobody
// there to answer, the server is told its question was declined, and why.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conformanceServerPath } from '../../e2e/fixtures/paths.js'
import type { PromptGetResponse } from '../src/protocol/index.js'
import { cleanup, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'
import { answerInput, answerer, nextInput } from './inputs-rig.js'
import { post } from './offerings-rig.js'
import { elicitingClient } from './gateway-harness.js'
import { gatewayToken } from './tasks-wire.js'

const PROMPT = 'mcp_modern_test_input_required_result_prompt'

describe('questions before a prompt', () => {
  let daemon: Daemon

  beforeAll(async () => {
    daemon = await startInProcess({
      mcpServers: {
        modern: {
          command: process.execPath,
          args: [conformanceServerPath],
          trust: true,
          versionNegotiation: 'auto',
        },
      },
    })
    expect(await daemon.waitForStatus('modern', 'ready')).toMatchObject({ era: 'modern' })
  })
  afterAll(cleanup)

  it('asks the people in the session, and gets the prompt with their answer', async () => {
    const tab = await answerer(daemon)
    const got = post(daemon, '/prompts/get', { name: PROMPT, arguments: {} })
    const asked = await nextInput(tab, null)
    expect(asked).toMatchObject({
      server: 'modern',
      kind: 'form',
      message: 'What context should the prompt use?',
    })
    expect(
      (await answerInput(tab, asked.inputId, { action: 'accept', content: { context: 'tea' } })).ok,
    ).toBe(true)
    const response = await got
    expect(response.status).toBe(200)
    const body = (await response.json()) as PromptGetResponse
    expect(body.result.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Use this context: {"context":"tea"}' } },
    ])
    const recorded = (await daemon.events()).filter((event) => event.type === 'prompt.got')
    expect(recorded.at(-1)).toMatchObject({ prompt: 'test_input_required_result_prompt' })
    tab.ws.close()
    await tab.closed
  })

  it('tells the server its question was declined, and why, when nobody is there to answer', async () => {
    const before = (await daemon.events()).length
    const response = await post(daemon, '/prompts/get', { name: PROMPT, arguments: {} })
    // The server decides what a declined question means: this one answers without the context.
    expect(response.status).toBe(200)
    const body = (await response.json()) as PromptGetResponse
    expect(body.result.messages[0]).toMatchObject({ content: { text: 'Use this context: {}' } })
    const events = (await daemon.events()).slice(before)
    const asked = events.find((event) => event.type === 'input.requested')
    expect(asked).toMatchObject({ callId: null, server: 'modern' })
    // Nobody was attached, or the tab that was went as the question came.
    expect(events.find((event) => event.type === 'input.resolved')).toMatchObject({
      action: 'decline',
      reason: expect.stringMatching(
        /nobody attached to Ferry can answer it|every client that could answer it detached/,
      ),
    })
  })

  it("puts the question to a gateway client that declared elicitation, in the client's era, and records the get as the client's", async () => {
    const secret = await gatewayToken(daemon, 'prompter')
    for (const era of ['modern', 'legacy'] as const) {
      const asked: string[] = []
      const client = await elicitingClient(daemon, secret, era, async (params) => {
        asked.push(String(params.message))
        return { action: 'accept', content: { context: era } }
      })
      const got = await client.getPrompt({ name: PROMPT })
      expect(asked, era).toEqual(['What context should the prompt use?'])
      expect(got.messages[0], era).toMatchObject({
        content: { text: `Use this context: {"context":"${era}"}` },
      })
      await client.close()
    }
    const recorded = (await daemon.events()).filter((event) => event.type === 'prompt.got')
    expect(recorded.slice(-2).map((event) => event.client?.label)).toEqual([
      'prompter (gateway)',
      'prompter (gateway)',
    ])
  })
})
