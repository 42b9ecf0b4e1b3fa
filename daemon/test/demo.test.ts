import { afterEach, describe, expect, it } from 'vitest'
import type { StatusResponse, ToolInfo } from '../src/protocol/index.js'
import { cleanup } from './harness.js'
import { startInProcess } from './in-process.js'

afterEach(cleanup)

describe('the bundled demo server', () => {
  it('runs when no settings exist, negotiates the modern protocol, and its tools and prompt work', async () => {
    const daemon = await startInProcess(null)
    expect(await daemon.waitForStatus('demo', 'ready')).toMatchObject({
      era: 'modern',
      protocolVersion: '2026-07-28',
      toolCount: 5,
    })
    const status = JSON.parse((await daemon.cli(['status', '--json'])).stdout) as StatusResponse
    expect(status).toMatchObject({ usingDemo: true, settingsFiles: [] })
    const tools = JSON.parse((await daemon.cli(['tools', '--json'])).stdout) as ToolInfo[]
    expect(tools.map((tool) => tool.name)).toEqual([
      'mcp_demo_echo',
      'mcp_demo_add',
      'mcp_demo_countdown',
      'mcp_demo_write_note',
      'mcp_demo_show_revenue_dashboard',
    ])
    expect((await daemon.cli(['call', 'mcp_demo_add', '{"a":2,"b":3}'])).stdout).toBe('5\n')
    const countdown = await daemon.cli(['call', 'mcp_demo_countdown', '{"from":2,"intervalMs":10}'])
    expect(countdown.stdout).toBe('Lift-off!\n')
    // The prompt `ferry prompt --help` names as its example.
    expect((await daemon.cli(['prompt', '--help'])).stdout).toContain('e.g. mcp_demo_greeting')
    expect((await daemon.cli(['prompts'])).stdout).toContain('mcp_demo_greeting')
    const prompt = await daemon.cli(['prompt', 'mcp_demo_greeting', '{"name":"Ada"}'])
    expect(prompt.stdout).toContain('Write a short, friendly greeting for Ada.')
  })
})
