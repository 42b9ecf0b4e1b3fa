// Roots through the gateway: a server gets the roots of Ferry's settings whoever calls, and only a
// server whose settings say `"roots": "client"` gets those of the gateway client whose call asks,
// in the client's era; a call from anywhere else gives it none.

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conformanceServerPath } from '../../e2e/fixtures/paths.js'
import type { CallToolResult } from '../src/protocol/index.js'
import { cleanup, tempDir, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'
import { gatewayToken } from './tasks-wire.js'

const AGENT_ROOT = { uri: 'file:///agent/project', name: 'project' }

const conformance = (extra: Record<string, unknown>) => ({
  command: process.execPath,
  args: [conformanceServerPath],
  trust: true,
  ...extra,
})

function textOf(result: unknown): string {
  const [first] = (result as CallToolResult).content as Array<{ text?: string }>
  return first?.text ?? ''
}

describe('roots through the gateway', () => {
  let daemon: Daemon
  let token: string
  let settingsRoot: string
  const clients: Client[] = []

  beforeAll(async () => {
    settingsRoot = await tempDir('ferry-roots-')
    daemon = await startInProcess({
      mcpServers: {
        modern: conformance({ versionNegotiation: 'auto', roots: 'client' }),
        legacy: conformance({ roots: 'client' }),
        mine: conformance({ versionNegotiation: 'auto', roots: [settingsRoot] }),
      },
    })
    for (const name of ['modern', 'legacy', 'mine']) await daemon.waitForStatus(name, 'ready')
    token = await gatewayToken(daemon, 'rooted')
  })
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => {})))
    await cleanup()
  })

  async function agent(era: 'legacy' | 'modern'): Promise<Client> {
    const client = new Client(
      { name: `roots-${era}`, version: '1.0.0' },
      {
        capabilities: { roots: {} },
        versionNegotiation: { mode: era === 'legacy' ? 'legacy' : 'auto' },
      },
    )
    client.setRequestHandler('roots/list', () => ({ roots: [AGENT_ROOT] }))
    await client.connect(
      new StreamableHTTPClientTransport(new URL('mcp', daemon.info.url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    )
    clients.push(client)
    return client
  }

  const listRoots = (server: string) => `mcp_${server}_test_input_required_result_list_roots`

  it('gives a "roots": "client" server the calling client\'s roots, in either era of either side', async () => {
    for (const era of ['modern', 'legacy'] as const) {
      const client = await agent(era)
      for (const server of ['modern', 'legacy']) {
        const result = await client.callTool({ name: listRoots(server), arguments: {} })
        expect(textOf(result), `${era} client, ${server} server`).toBe(`Roots: ${AGENT_ROOT.uri}`)
      }
    }
    const notes = (await daemon.events()).filter(
      (event) =>
        event.type === 'notice' && event.message.includes('asked rooted (gateway) for its roots'),
    )
    expect(notes.length).toBeGreaterThanOrEqual(4)
  })

  it("keeps the settings' roots for any other server, whoever calls", async () => {
    const client = await agent('modern')
    const result = await client.callTool({ name: listRoots('mine'), arguments: {} })
    expect(textOf(result)).toBe(`Roots: file://${settingsRoot}`)
  })

  it('gives a "roots": "client" server no roots for a call from elsewhere', async () => {
    const response = await daemon.api('/call', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tool: listRoots('modern'), arguments: {} }),
    })
    expect(response.status).toBe(200)
    const body = (await response.json()) as { result: CallToolResult }
    expect(textOf(body.result)).toBe('Roots: ')
  })
})
