// Which session a gateway client's calls land in: the workspace's default one, or the session its
// token names; a token cannot name a session that does not exist.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SessionInfo, StatusResponse, TranscriptEvent } from '../src/protocol/index.js'
import { connectGateway, createGatewayToken, resultText } from './gateway-harness.js'
import { cleanup, fixture, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'

let daemon: Daemon
let defaultSession: string
let named: SessionInfo

const calls = (events: TranscriptEvent[]) =>
  events.flatMap((event) =>
    event.type === 'call.requested' ? [{ tool: event.tool, by: event.client?.label }] : [],
  )

beforeAll(async () => {
  daemon = await startInProcess({ mcpServers: { fx: fixture([]) } })
  await daemon.waitForStatus('fx', 'ready')
  defaultSession = ((await (await daemon.api('/status')).json()) as StatusResponse).defaultSession
  const created = await daemon.api('/sessions', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'agents' }),
  })
  named = (await created.json()) as SessionInfo
})
afterAll(cleanup)

describe('the session of a gateway client', () => {
  it("is the workspace's default one unless its token names another, in both eras", async () => {
    const plain = await createGatewayToken(daemon, 'plain')
    const routed = await createGatewayToken(daemon, 'routed', { session: named.id })
    for (const flavour of ['legacy', 'auto'] as const) {
      for (const token of [plain, routed]) {
        const client = await connectGateway(daemon, token, flavour)
        const result = await client.callTool('mcp_fx_echo', { text: `${flavour}` })
        expect(resultText(result)).toBe(flavour)
        await client.close()
      }
    }
    const inDefault = calls(await daemon.events(defaultSession))
    const inNamed = calls(await daemon.events(named.id))
    expect(inDefault).toEqual([
      { tool: 'mcp_fx_echo', by: 'plain (gateway)' },
      { tool: 'mcp_fx_echo', by: 'plain (gateway)' },
    ])
    expect(inNamed).toEqual([
      { tool: 'mcp_fx_echo', by: 'routed (gateway)' },
      { tool: 'mcp_fx_echo', by: 'routed (gateway)' },
    ])
  })

  it('cannot be a session that does not exist: creating such a token is refused with 404', async () => {
    const response = await daemon.api('/gateway/tokens', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'nowhere', session: 'no-such-session' }),
    })
    expect(response.status).toBe(404)
    const list = (await (await daemon.api('/gateway/tokens')).json()) as { name: string }[]
    expect(list.map((info) => info.name)).not.toContain('nowhere')
  })
})
