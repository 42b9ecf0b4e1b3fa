import { afterEach, describe, expect, it } from 'vitest'
import type { ToolInfo } from '../src/protocol/index.js'
import { cleanup, fixture, startDaemon, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'

afterEach(cleanup)

const MINIMAL_ENV = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER']

describe('child environment', () => {
  it('gives a server only the minimal environment plus its configured env and its mark', async () => {
    const daemon = await startDaemon(
      {
        mcpServers: {
          envy: fixture([], {
            env: { FIXTURE_SETTING: 'configured', EXPANDED: '${FERRY_TEST_SOURCE}' },
          }),
        },
      },
      { env: { FERRY_TEST_SOURCE: 'from-daemon', FERRY_TEST_SECRET: 'must-not-leak' } },
    )
    await daemon.waitForStatus('envy', 'ready')
    const result = await daemon.cli(['call', 'mcp_envy_env', '{}'])
    expect(result.code).toBe(0)
    const seen = JSON.parse(result.stdout) as Record<string, string>
    expect(seen.FIXTURE_SETTING).toBe('configured')
    expect(seen.EXPANDED).toBe('from-daemon')
    // The mark Ferry finds the server's processes by: this daemon's tag and the process's number.
    expect(seen.FERRY_SERVER).toMatch(/^[0-9a-f]{12}\/\d+$/)
    const unexpected = Object.keys(seen).filter(
      (key) =>
        !MINIMAL_ENV.includes(key) &&
        !['FIXTURE_SETTING', 'EXPANDED', 'FERRY_SERVER'].includes(key),
    )
    expect(unexpected).toEqual([])
    expect(result.stdout).not.toContain('must-not-leak')
  })

  it('marks a server whose settings use an unset variable invalid, naming the variable only', async () => {
    const daemon = await startInProcess({
      mcpServers: {
        needy: fixture([], { env: { TOKEN: '${FERRY_TEST_UNSET}' } }),
        fine: fixture([]),
      },
    })
    await daemon.waitForStatus('fine', 'ready')
    const needy = (await daemon.servers()).find((server) => server.name === 'needy')
    expect(needy?.status).toBe('invalid')
    expect(needy?.error).toContain('FERRY_TEST_UNSET')
  })
})

describe('qualified tool names', () => {
  const longName = `t${'x'.repeat(99)}`
  const settings = {
    mcpServers: {
      a_b: fixture(['--tool-name', 'c']),
      a: fixture(['--tool-name', 'b_c']),
      long: fixture(['--tool-name', longName]),
    },
  }

  async function names(daemon: Daemon) {
    for (const server of ['a_b', 'a', 'long']) await daemon.waitForStatus(server, 'ready')
    const tools = JSON.parse((await daemon.cli(['tools', '--json'])).stdout) as ToolInfo[]
    const pick = (server: string, tool: string) =>
      tools.find((entry) => entry.server === server && entry.tool === tool)?.name
    return { tools, ab_c: pick('a_b', 'c'), a_bc: pick('a', 'b_c'), long: pick('long', longName) }
  }

  it('keeps colliding and over-long names distinct, valid and stable across restarts, and calls each right tool', async () => {
    const first = await startInProcess(settings)
    const before = await names(first)
    expect(before.ab_c).toBeDefined()
    expect(before.a_bc).toBeDefined()
    expect(before.ab_c).not.toBe(before.a_bc)
    expect(before.long).toHaveLength(64)
    const all = before.tools.map((tool) => tool.name)
    expect(new Set(all).size).toBe(all.length)
    for (const name of all) expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/)

    const viaCollision = await first.cli(['call', before.ab_c as string, '{"text":"from a_b"}'])
    expect(viaCollision.stdout).toBe('from a_b\n')
    const viaLong = await first.cli(['call', before.long as string, '{"text":"long one"}'])
    expect(viaLong.stdout).toBe('long one\n')
    await first.stop()

    const second = await startInProcess(settings, { stateDir: first.stateDir })
    const after = await names(second)
    expect([after.ab_c, after.a_bc, after.long]).toEqual([before.ab_c, before.a_bc, before.long])
  })
})
