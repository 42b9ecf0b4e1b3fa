import { describe, expect, it } from 'vitest'
import { canonicalJson, fingerprint } from './fingerprint.js'
import type { StdioServerConfig } from './types.js'

const config: StdioServerConfig = {
  name: 'a',
  transport: 'stdio',
  command: 'node',
  args: ['x.js'],
  env: { B: '2', A: '1' },
  cwd: undefined,
  timeout: 600_000,
  discoveryTimeoutMs: 30_000,
  appResourceTimeoutMs: 5_000,
  versionNegotiation: 'legacy',
  trust: false,
  includeTools: undefined,
  excludeTools: undefined,
  roots: [],
}

describe('fingerprint', () => {
  it('writes canonical JSON with sorted keys and no undefined members', () => {
    expect(canonicalJson({ b: [1, { d: 1, c: undefined }], a: 'x' })).toBe(
      '{"a":"x","b":[1,{"d":1}]}',
    )
  })

  it('does not depend on key order, the server name or non-connection fields', () => {
    const reordered = {
      ...config,
      name: 'b',
      env: { A: '1', B: '2' },
      timeout: 1,
      trust: true,
      appResourceTimeoutMs: 1,
    }
    expect(fingerprint(reordered)).toBe(fingerprint(config))
  })

  it('changes when a connection field changes', () => {
    expect(fingerprint({ ...config, discoveryTimeoutMs: 100 })).not.toBe(fingerprint(config))
    expect(fingerprint({ ...config, cwd: '/tmp' })).not.toBe(fingerprint(config))
    expect(fingerprint({ ...config, versionNegotiation: 'auto' })).not.toBe(fingerprint(config))
  })
})
