// Sampling through the gateway: a server's request for a model reply during a gateway client's
// call goes to that client when it declared sampling (legacy: a request on its session;
// 2026-07-28: an input-required round), and the server gets the client's reply as given. Roots
// are never the client's: a server gets the person's, from settings.

import { pathToFileURL } from 'node:url'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import type { CreateMessageResult } from '@modelcontextprotocol/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanup, fixture, tempDir, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'
import { elicitingClient } from './gateway-harness.js'
import { gatewayToken } from './gateway-surface-clients.js'

let daemon: Daemon
let token: string
/** The one root the person set for both servers. */
let root: string

beforeAll(async () => {
  root = await tempDir('ferry-root-')
  daemon = await startInProcess({
    mcpServers: {
      old: fixture(['--input-tools', '--era', 'legacy'], {
        versionNegotiation: 'legacy',
        roots: [root],
      }),
      new: fixture(['--input-tools', '--era', 'modern'], {
        versionNegotiation: 'auto',
        roots: [root],
      }),
    },
  })
  expect(await daemon.waitForStatus('old', 'ready')).toMatchObject({ era: 'legacy' })
  expect(await daemon.waitForStatus('new', 'ready')).toMatchObject({ era: 'modern' })
  token = await gatewayToken(daemon, 'sampler')
})
afterAll(cleanup)

const REPLY: CreateMessageResult = {
  model: 'client-model',
  role: 'assistant',
  content: { type: 'text', text: 'Hello, fixture.' },
  stopReason: 'endTurn',
}

/**
 * A client that declares sampling and roots, answers every sampling request with REPLY and every
 * roots request with the whole disk, keeping what it was asked.
 */
async function sampler(era: 'legacy' | 'modern'): Promise<{ client: Client; asked: unknown[] }> {
  const client = new Client(
    { name: `sampler-${era}`, version: '1.0.0' },
    {
      capabilities: { sampling: {}, roots: {} },
      versionNegotiation: era === 'legacy' ? { mode: 'legacy' } : { mode: 'auto' },
    },
  )
  const asked: unknown[] = []
  client.setRequestHandler('sampling/createMessage', (request) => {
    asked.push(request.params.messages)
    return REPLY
  })
  client.setRequestHandler('roots/list', () => {
    asked.push('roots')
    return { roots: [{ uri: 'file:///', name: 'everything' }] }
  })
  await client.connect(
    new StreamableHTTPClientTransport(new URL('mcp', daemon.info.url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  )
  return { client, asked }
}

describe('sampling through the gateway', () => {
  for (const era of ['legacy', 'modern'] as const) {
    for (const server of ['old', 'new'] as const) {
      it(`asks a ${era} client that declared sampling for a ${server === 'old' ? 'legacy' : '2026-07-28'} server's model reply`, async () => {
        const { client, asked } = await sampler(era)
        const result = await client.callTool({
          name: `mcp_${server}_ask_person`,
          arguments: { kind: 'sampling' },
        })
        expect(asked).toEqual([
          [{ role: 'user', content: { type: 'text', text: 'Say hello to the fixture' } }],
        ])
        expect(result.structuredContent).toMatchObject({ received: REPLY })
        const notes = (await daemon.events()).filter(
          (event) => event.type === 'notice' && event.message.includes('for a model reply'),
        )
        expect(notes.length).toBeGreaterThan(0)
        await client.close()
      })
    }
  }

  for (const server of ['old', 'new'] as const) {
    it(`gives a ${server === 'old' ? 'legacy' : '2026-07-28'} server the person's roots during a gateway call, never the client's`, async () => {
      const { client, asked } = await sampler('legacy')
      const result = await client.callTool({
        name: `mcp_${server}_ask_person`,
        arguments: { kind: 'roots' },
      })
      expect(result.structuredContent).toMatchObject({
        received: { roots: [expect.objectContaining({ uri: pathToFileURL(root).href })] },
      })
      expect(asked).toEqual([])
      await client.close()
    })
  }

  it("keeps a 2026-07-28 server's own key for its question in the client's round", async () => {
    const client = await elicitingClient(
      daemon,
      token,
      'modern',
      () => Promise.reject(new Error('answered by hand')),
      { autoFulfill: false },
    )
    const name = 'mcp_new_ask_person'
    const first = (await client.callTool(
      { name, arguments: { kind: 'secret' } },
      { allowInputRequired: true },
    )) as { resultType?: string; requestState?: string; inputRequests?: Record<string, unknown> }
    expect(first.resultType).toBe('input_required')
    // The fixture asks under `answer`, and reads its answer from there.
    expect(Object.keys(first.inputRequests ?? {})).toEqual(['answer'])
    const answer = { action: 'accept', content: { user: 'ada', key: 'k-1' } }
    const done = (await client.callTool(
      {
        name,
        arguments: { kind: 'secret' },
        inputResponses: { answer },
        requestState: first.requestState,
      } as never,
      { allowInputRequired: true },
    )) as { structuredContent?: unknown }
    expect(done.structuredContent).toEqual({ received: answer })
    await client.close()
  })
})
