import { afterEach, describe, expect, it } from 'vitest'
import type { ToolInfo } from '../src/protocol/index.js'
import {
  cleanup,
  fixture,
  rawLegacyServerPath,
  readJsonLines,
  tempDir,
  waitFor,
} from './harness.js'
import { startInProcess } from './in-process.js'

afterEach(cleanup)

const toolListHits = async (record: string) =>
  (await readJsonLines(record)).filter((line) => line.method === 'tools/list').length

describe('tool discovery', () => {
  it('serves `tools --refresh` from the SDK cache within the server ttl and reaches the server once after it', async () => {
    // One server whose ttl no run of this test can outlast, one whose ttl has passed before its
    // refresh: neither answer depends on how fast the machine is.
    const cachedRecord = `${await tempDir()}/cached.jsonl`
    const staleRecord = `${await tempDir()}/stale.jsonl`
    const shortTtlMs = 200
    const daemon = await startInProcess({
      mcpServers: {
        cached: fixture(['--era', 'modern', '--record', cachedRecord, '--tools-ttl', '600000'], {
          versionNegotiation: 'auto',
        }),
        stale: fixture(
          ['--era', 'modern', '--record', staleRecord, '--tools-ttl', String(shortTtlMs)],
          { versionNegotiation: 'auto' },
        ),
      },
    })
    await daemon.waitForStatus('cached', 'ready')
    await daemon.waitForStatus('stale', 'ready')
    const listedAt = Date.now()
    expect(await toolListHits(cachedRecord)).toBe(1)
    expect(await toolListHits(staleRecord)).toBe(1)

    await waitFor(() => Date.now() - listedAt > shortTtlMs + 50, 5_000, 'the short ttl to pass')
    const refreshed = await daemon.cli(['tools', '--refresh', '--json'])
    expect(refreshed.code).toBe(0)
    expect(JSON.parse(refreshed.stdout)).toHaveLength(12)
    expect(await toolListHits(cachedRecord)).toBe(1)
    expect(await toolListHits(staleRecord)).toBe(2)
  })

  it('lists tools from a legacy server that answers tools/list without declaring the capability', async () => {
    const daemon = await startInProcess({
      mcpServers: {
        undeclared: {
          command: process.execPath,
          args: [rawLegacyServerPath, '--undeclared'],
          trust: true,
        },
      },
    })
    expect(await daemon.waitForStatus('undeclared', 'ready')).toMatchObject({ toolCount: 1 })
    const tools = JSON.parse((await daemon.cli(['tools', '--json'])).stdout) as ToolInfo[]
    expect(tools.map((tool) => tool.name)).toEqual(['mcp_undeclared_echo'])
    const call = await daemon.cli(['call', 'mcp_undeclared_echo', '{"text":"undeclared but here"}'])
    expect(call.stdout).toBe('undeclared but here\n')
  })

  for (const era of ['legacy', 'modern'] as const) {
    it(`aggregates three pages of tools on a ${era} connection`, async () => {
      const record = `${await tempDir()}/record.jsonl`
      const daemon = await startInProcess({
        mcpServers: {
          paged: fixture(
            [
              '--era',
              era === 'modern' ? 'modern' : 'legacy',
              '--pages',
              '3',
              '--extra-tools',
              '6',
              '--record',
              record,
            ],
            { versionNegotiation: era === 'modern' ? 'auto' : 'legacy' },
          ),
        },
      })
      expect(await daemon.waitForStatus('paged', 'ready')).toMatchObject({ era, toolCount: 12 })
      const tools = JSON.parse((await daemon.cli(['tools', '--json'])).stdout) as ToolInfo[]
      expect(tools.map((tool) => tool.tool)).toEqual([
        'echo',
        'slow',
        'crash',
        'env',
        'rich',
        'fail',
        ...Array.from({ length: 6 }, (_, i) => `extra_${i}`),
      ])
      expect(await toolListHits(record)).toBe(3)
    })
  }

  it('keeps annotations from the same tools/list result that defined the schema', async () => {
    const daemon = await startInProcess({ mcpServers: { fx: fixture([]) } })
    await daemon.waitForStatus('fx', 'ready')
    const tools = JSON.parse((await daemon.cli(['tools', '--json'])).stdout) as ToolInfo[]
    const echo = tools.find((tool) => tool.tool === 'echo')
    expect(echo?.annotations).toMatchObject({ readOnlyHint: true })
    expect(echo?.inputSchema).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string' } },
    })
  })

  it('applies includeTools and excludeTools, exclude winning', async () => {
    const daemon = await startInProcess({
      mcpServers: {
        fx: fixture([], { includeTools: ['echo', 'slow', 'fail'], excludeTools: ['fail'] }),
      },
    })
    await daemon.waitForStatus('fx', 'ready')
    const tools = JSON.parse((await daemon.cli(['tools', '--json'])).stdout) as ToolInfo[]
    expect(tools.map((tool) => tool.tool)).toEqual(['echo', 'slow'])
    expect((await daemon.cli(['call', 'mcp_fx_fail', '{}'])).code).toBe(2)
  })
})
