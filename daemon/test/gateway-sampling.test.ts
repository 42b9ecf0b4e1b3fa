// Sampling through the gateway: a server's request for a model reply during a gateway client's
// call goes to that client when it declared sampling (legacy: a request on its session;
// 2026-07-28: an input-required round), and the server gets the client's reply as given.

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import type { CreateMessageResult } from '@modelcontextprotocol/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanup, fixture, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'
import { gatewayToken } from './gateway-surface-clients.js'

let daemon: Daemon
let token: string

beforeAll(async () => {
  daemon = await startInProcess({
    mcpServers: {
      old: fixture(['--input-tools', '--era', 'legacy'], { versionNegotiation: 'legacy' }),
      new: fixture(['--input-tools', '--era', 'modern'], { versionNegotiation: 'auto' }),
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

/** A client that declares sampling and answers every request with REPLY, keeping what it was asked. */
async function sampler(era: 'legacy' | 'modern'): Promise<{ client: Client; asked: unknown[] }> {
  const client = new Client(
    { name: `sampler-${era}`, version: '1.0.0' },
    {
      capabilities: { sampling: {} },
      versionNegotiation: era === 'legacy' ? { mode: 'legacy' } : { mode: 'auto' },
    },
  )
  const asked: unknown[] = []
  client.setRequestHandler('sampling/createMessage', (request) => {
    asked.push(request.params.messages)
    return REPLY
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
})
