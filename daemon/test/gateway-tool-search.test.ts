// Tool search on the gateway: a token made with --tool-search lists Ferry's search tool and the
// tools pinned in settings; a search answers the best-fitting tools with their schemas, and a
// found tool is called by its name like any other. Other tokens list every tool.

import { INVALID_PARAMS, type Client } from '@modelcontextprotocol/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SEARCH_TOOL } from '../src/gateway/tool-search.js'
import { cleanup, fixture, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'
import { gatewayToken, OpenedClients, refusalOf, type Era } from './gateway-surface-clients.js'
import { offeringsFixture } from './offerings-rig.js'

let daemon: Daemon
const tokens = { search: '', all: '' }
const opened = new OpenedClients(() => daemon)

beforeAll(async () => {
  daemon = await startInProcess({
    mcpServers: { fx: fixture([]), off: offeringsFixture('legacy') },
    gateway: { pinnedTools: ['mcp_fx_echo'] },
  })
  await daemon.waitForStatus('fx', 'ready')
  await daemon.waitForStatus('off', 'ready')
  tokens.search = await gatewayToken(daemon, 'searcher', ['--tool-search'])
  tokens.all = await gatewayToken(daemon, 'lister')
})

afterAll(async () => {
  await opened.closeAll()
  await cleanup()
})

function open(token: keyof typeof tokens, era: Era): Promise<Client> {
  return opened.open(tokens[token], era)
}

interface Found {
  name: string
  description?: string
  inputSchema: { properties?: Record<string, unknown> }
}

async function search(client: Client, query: string, limit?: number): Promise<Found[]> {
  const result = await client.callTool({
    name: SEARCH_TOOL,
    arguments: { query, ...(limit === undefined ? {} : { limit }) },
  })
  expect(result.isError).not.toBe(true)
  return (result.structuredContent as { tools: Found[] }).tools
}

describe.each(['legacy', 'modern'] as const)('tool search (%s client)', (era) => {
  it('lists only the search tool and the pinned tools', async () => {
    const client = await open('search', era)
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toEqual([SEARCH_TOOL, 'mcp_fx_echo'])
  })

  it('finds the tool that fits a task in plain words, with its schema, and calls it by name', async () => {
    const client = await open('search', era)
    const found = await search(client, 'change a resource and tell whoever follows it')
    expect(found[0]).toMatchObject({
      name: 'mcp_off_touch',
      inputSchema: { properties: { uri: expect.any(Object) } },
    })
    const steps = await search(client, 'report progress while it works in steps', 3)
    expect(steps.length).toBeLessThanOrEqual(3)
    expect(steps[0]?.name).toBe('mcp_fx_slow')
    const touched = await client.callTool({
      name: 'mcp_off_touch',
      arguments: { uri: 'note://one' },
    })
    expect(touched.content).toEqual([{ type: 'text', text: 'touched note://one' }])
    const recorded = (await daemon.events()).filter(
      (event) => event.type === 'call.requested' && event.tool === 'mcp_off_touch',
    )
    expect(recorded.at(-1)?.client).toMatchObject({ label: 'searcher (gateway)' })
  })

  it('asks for words when the query is empty', async () => {
    const client = await open('search', era)
    const result = await client.callTool({ name: SEARCH_TOOL, arguments: { query: ' ' } })
    expect(result.isError).toBe(true)
  })

  it('lists every tool to a token without tool search, which has no search tool', async () => {
    const client = await open('all', era)
    const names = (await client.listTools()).tools.map((tool) => tool.name)
    expect(names).toEqual(expect.arrayContaining(['mcp_fx_echo', 'mcp_fx_slow', 'mcp_off_touch']))
    expect(names).not.toContain(SEARCH_TOOL)
    const error = await refusalOf(
      client.callTool({ name: SEARCH_TOOL, arguments: { query: 'echo' } }),
    )
    expect(error.code).toBe(INVALID_PARAMS)
  })
})
