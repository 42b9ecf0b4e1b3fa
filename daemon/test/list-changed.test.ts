import { afterEach, describe, expect, it } from 'vitest'
import type { ToolInfo } from '../src/protocol/index.js'
import { cleanup, countLines, fixture, tempDir, waitFor, type Daemon } from './harness.js'
import { LOADED_PROBE_CAPS, LOADED_READY_MS, startInProcess } from './in-process.js'

afterEach(cleanup)

async function toolNames(daemon: Daemon): Promise<string[]> {
  const tools = JSON.parse((await daemon.cli(['tools', '--json'])).stdout) as ToolInfo[]
  return tools.map((tool) => tool.name)
}

async function growAndSee(daemon: Daemon, server: string): Promise<void> {
  expect(await toolNames(daemon)).not.toContain(`mcp_${server}_sprout`)
  const grown = await daemon.cli(['call', `mcp_${server}_grow`, '{"name":"sprout"}'])
  expect(grown.code).toBe(0)
  await waitFor(
    async () => (await toolNames(daemon)).includes(`mcp_${server}_sprout`),
    15_000,
    'the new tool to be listed',
  )
  const call = await daemon.cli(['call', `mcp_${server}_sprout`, '{"text":"fresh"}'])
  expect(call.stdout).toBe('fresh\n')
}

describe('tools/list_changed', () => {
  it('refreshes the registry when a legacy server announces a changed tool list', async () => {
    const daemon = await startInProcess({
      mcpServers: { fx: fixture(['--era', 'legacy', '--grow']) },
    })
    await daemon.waitForStatus('fx', 'ready')
    await growAndSee(daemon, 'fx')
  })

  it('refreshes the registry on a modern connection, also when it was made from a remembered verdict', async () => {
    const spawns = `${await tempDir()}/spawns`
    const settings = {
      mcpServers: {
        fx: fixture(['--era', 'modern', '--grow', '--spawn-log', spawns], {
          versionNegotiation: 'auto',
        }),
      },
    }
    const probed = await startInProcess(settings, { probeCaps: LOADED_PROBE_CAPS })
    expect(await probed.waitForStatus('fx', 'ready', LOADED_READY_MS)).toMatchObject({
      era: 'modern',
    })
    // The probe runs on a sibling process: two spawns.
    expect(await countLines(spawns)).toBe(2)
    await growAndSee(probed, 'fx')
    await probed.stop()

    const remembered = await startInProcess(settings, { stateDir: probed.stateDir })
    expect(await remembered.waitForStatus('fx', 'ready', LOADED_READY_MS)).toMatchObject({
      era: 'modern',
    })
    // The remembered verdict skipped the probe: one more spawn only.
    expect(await countLines(spawns)).toBe(3)
    await growAndSee(remembered, 'fx')
  })
})
