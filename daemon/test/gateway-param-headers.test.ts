import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conformanceServerPath } from '../../e2e/fixtures/paths.js'
import { cleanup, readJsonLines, tempDir, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'
import {
  createToken,
  errorOf,
  mcp,
  modernBody,
  modernHeaders,
  openLegacySession,
  sessionHeaders,
} from './gateway-wire.js'

// `test_custom_header` declares its `region` argument with `x-mcp-header: Region`, so a
// 2026-07-28 call sends it in `Mcp-Param-Region` as well.

const TOOL = 'test_custom_header'

describe('Mcp-Param headers on a gateway tools/call', () => {
  let daemon: Daemon
  let token: string
  let record: string

  const calls = async () =>
    (await readJsonLines(record)).filter((entry) => entry.method === 'tools/call')
  const call = (region: unknown, headers: Record<string, string>, id = 1) =>
    mcp(daemon, token, {
      headers: { ...modernHeaders('tools/call', TOOL), ...headers },
      body: modernBody('tools/call', { name: TOOL, arguments: { region } }, id),
    })

  beforeAll(async () => {
    record = join(await tempDir(), 'record.jsonl')
    daemon = await startInProcess({
      mcpServers: {
        conformance: {
          command: process.execPath,
          args: [conformanceServerPath, '--record', record],
          trust: true,
        },
      },
    })
    await daemon.waitForStatus('conformance', 'ready')
    token = await createToken(daemon, 'param-headers', ['--servers', 'conformance', '--unprefixed'])
  })
  afterAll(cleanup)

  it('runs a call whose header carries the argument as sent or as canonical Base64', async () => {
    const plain = await call('us-west1', { 'mcp-param-region': 'us-west1' })
    expect(plain.status, plain.text).toBe(200)
    expect(plain.text).toContain('Region: us-west1')
    const encoded = `=?base64?${Buffer.from('Grüße').toString('base64')}?=`
    const base64 = await call('Grüße', { 'mcp-param-region': encoded }, 2)
    expect(base64.status, base64.text).toBe(200)
    expect(base64.text).toContain('Region: Grüße')
  })

  it('refuses a missing, badly encoded or different header with 400 and -32020 before the server sees the call', async () => {
    const before = (await calls()).length
    const refusals: { region: string; headers: Record<string, string>; says: RegExp }[] = [
      { region: 'eu', headers: {}, says: /Mcp-Param-Region header is absent/ },
      {
        region: 'Hello',
        headers: { 'mcp-param-region': '=?base64?SGVsbG8?=' },
        says: /not canonical Base64/,
      },
      {
        region: 'Hello',
        headers: { 'mcp-param-region': '=?base64?SGVs!!!bG8=?=' },
        says: /not canonical Base64/,
      },
      {
        region: 'eu',
        headers: { 'mcp-param-region': 'us' },
        says: /decodes to "us" but the body carries region="eu"/,
      },
    ]
    for (const [index, { region, headers, says }] of refusals.entries()) {
      const answer = await call(region, headers, 10 + index)
      expect(answer.status, answer.text).toBe(400)
      const error = errorOf(answer)
      expect(error.code, answer.text).toBe(-32020)
      expect(error.message).toMatch(says)
      expect(answer.message?.id).toBe(10 + index)
    }
    // The barrier: a call that fits reaches the server, and it is the only one that did.
    const fits = await call('ap', { 'mcp-param-region': 'ap' }, 20)
    expect(fits.status, fits.text).toBe(200)
    const reached = (await calls()).slice(before)
    expect(reached.map((entry) => entry.arguments)).toEqual([{ region: 'ap' }])
  })

  it('needs no Mcp-Param header on a 2025-era call', async () => {
    const session = await openLegacySession(daemon, token)
    const legacy = await mcp(daemon, token, {
      headers: sessionHeaders(session),
      body: {
        jsonrpc: '2.0',
        id: 31,
        method: 'tools/call',
        params: { name: TOOL, arguments: { region: 'eu' } },
      },
    })
    expect(legacy.status, legacy.text).toBe(200)
    expect(legacy.text).toContain('Region: eu')
  })
})
