import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, fixture } from './harness.js'
import { startInProcess } from './in-process.js'

afterEach(cleanup)

describe('misbehaving stdio servers', () => {
  it('skips lines on stdout that are not JSON-RPC', async () => {
    const daemon = await startInProcess({ mcpServers: { noisy: fixture(['--stdout-noise']) } })
    await daemon.waitForStatus('noisy', 'ready')
    expect((await daemon.cli(['call', 'mcp_noisy_echo', '{"text":"heard"}'])).stdout).toBe(
      'heard\n',
    )
  })

  it('drops a server that floods stdout past the read buffer, failing its call, while others carry on', async () => {
    const daemon = await startInProcess({
      mcpServers: { flood: fixture(['--flood']), calm: fixture([]) },
    })
    await daemon.waitForStatus('flood', 'ready')
    await daemon.waitForStatus('calm', 'ready')
    const flooded = await daemon.cli(['call', 'mcp_flood_flood', '{"mb":12}'])
    expect(flooded.code).toBe(2)
    expect(flooded.stderr).toContain(
      '"flood" wrote a line over 10 MiB on stdout and was disconnected',
    )
    expect((await daemon.cli(['call', 'mcp_calm_echo', '{"text":"unbothered"}'])).stdout).toBe(
      'unbothered\n',
    )
    const status = await daemon.api('/status')
    expect(status.status).toBe(200)
    // The flooding server is reconnected with backoff like any crash.
    expect((await daemon.waitForStatus('flood', 'ready', 15_000)).restartCount).toBeGreaterThan(0)
  })
})
