import { describe, expect, it } from 'vitest'
import type { ServerConfig } from '../config/types.js'
import { PROBE_CAP_MS, PROBE_FLOOR_MS, REMOTE_PROBE_CAP_MS, planConnect } from './connect-plan.js'

function stdio(overrides: Partial<ServerConfig>): ServerConfig {
  return {
    name: 's',
    transport: 'stdio',
    command: 'node',
    args: [],
    env: {},
    cwd: undefined,
    timeout: 600_000,
    discoveryTimeoutMs: 30_000,
    appResourceTimeoutMs: 5_000,
    versionNegotiation: 'auto',
    trust: false,
    includeTools: undefined,
    excludeTools: undefined,
    ...overrides,
  } as ServerConfig
}

describe('planConnect', () => {
  it('connects legacy without a probe when the server is configured legacy', () => {
    expect(planConnect(stdio({ versionNegotiation: 'legacy' }))).toEqual({
      kind: 'legacy',
      deadlineMs: 30_000,
      reason: 'configured',
    })
  })

  it('caps the probe at 5 s on a generous budget', () => {
    expect(planConnect(stdio({}))).toEqual({
      kind: 'auto',
      deadlineMs: 30_000,
      probeTimeoutMs: PROBE_CAP_MS,
    })
  })

  it('shortens the probe to half the budget so the initialize fallback still fits', () => {
    expect(planConnect(stdio({ discoveryTimeoutMs: 3000 }))).toMatchObject({
      kind: 'auto',
      probeTimeoutMs: 1500,
    })
  })

  it('skips the probe when half the budget is below the measured floor', () => {
    expect(planConnect(stdio({ discoveryTimeoutMs: 2 * PROBE_FLOOR_MS - 1 }))).toMatchObject({
      kind: 'legacy',
      reason: 'budget',
    })
    expect(planConnect(stdio({ discoveryTimeoutMs: 2 * PROBE_FLOOR_MS }))).toMatchObject({
      kind: 'auto',
      probeTimeoutMs: PROBE_FLOOR_MS,
    })
  })

  it('probes a remote server set to auto for at most 2 s, and never one left legacy', () => {
    const remote = (overrides: Partial<ServerConfig>) =>
      ({
        ...stdio({ discoveryTimeoutMs: 5000, ...overrides }),
        transport: 'streamable-http',
        url: 'http://127.0.0.1:1/mcp',
        headers: {},
      }) as ServerConfig
    expect(planConnect(remote({}))).toEqual({
      kind: 'auto',
      deadlineMs: 5000,
      probeTimeoutMs: REMOTE_PROBE_CAP_MS,
    })
    expect(planConnect(remote({ versionNegotiation: 'legacy' }))).toMatchObject({
      kind: 'legacy',
      reason: 'configured',
    })
  })
})
