import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanup, fixture, readJsonLines, tempDir, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'
import {
  createToken,
  errorOf,
  INITIALIZE,
  mcp,
  mcpUrl,
  modernBody,
  modernHeaders,
  openLegacySession,
  sessionHeaders,
  type McpAnswer,
} from './gateway-wire.js'

function legacyCall(name: string, args: unknown, id = 7): Record<string, unknown> {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }
}

function expectError(answer: McpAnswer, status: number, code: number, message: RegExp): void {
  expect(answer.status, answer.text).toBe(status)
  const error = errorOf(answer)
  expect(error.code, answer.text).toBe(code)
  expect(error.message).toMatch(message)
}

describe('bad input on /mcp', () => {
  let daemon: Daemon
  let record: string
  let token: string
  let session: string

  const calls = async () =>
    (await readJsonLines(record)).filter((entry) => entry.method === 'tools/call')
  /** `headerName` null sends no `Mcp-Name`. */
  const modernCall = (name: string, args: unknown, headerName: string | null = name) =>
    mcp(daemon, token, {
      headers: modernHeaders('tools/call', headerName ?? undefined),
      body: modernBody('tools/call', { name, arguments: args }),
    })

  beforeAll(async () => {
    record = join(await tempDir(), 'record.jsonl')
    daemon = await startInProcess({ mcpServers: { alpha: fixture(['--record', record]) } })
    await daemon.waitForStatus('alpha', 'ready')
    token = await createToken(daemon, 'bad-input')
    session = await openLegacySession(daemon, token)
  })
  afterAll(cleanup)

  it('answers bodies it cannot serve with 400, 413 or 415 and a message that says what to send', async () => {
    for (const headers of [{}, sessionHeaders(session), modernHeaders('tools/list')]) {
      expectError(
        await mcp(daemon, token, { headers, body: '{"jsonrpc":"2.0","id":1,' }),
        400,
        -32700,
        /^Parse error: the body is not valid JSON \(.+\); send one JSON-RPC message$/,
      )
      expectError(await mcp(daemon, token, { headers, body: '' }), 400, -32700, /body is empty/)
      expectError(
        await mcp(daemon, token, {
          headers,
          body: [INITIALIZE, { jsonrpc: '2.0', id: 2, method: 'tools/list' }],
        }),
        400,
        -32600,
        /JSON-RPC batches are not accepted; send each message in its own POST/,
      )
      expectError(
        await mcp(daemon, token, {
          headers: { ...headers, 'content-type': 'text/plain' },
          body: JSON.stringify(INITIALIZE),
        }),
        415,
        -32000,
        /send one JSON-RPC message as Content-Type: application\/json/,
      )
      const oversize = JSON.stringify({ ...INITIALIZE, pad: 'x'.repeat(1024 * 1024) })
      expectError(
        await mcp(daemon, token, { headers, body: oversize }),
        413,
        -32000,
        /over 1048576 bytes \(1 MiB\), the limit of \/mcp; send a smaller message/,
      )
    }
    // Streamed without a length, the body is cut off at the limit all the same.
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024))
    let sent = 0
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 40) controller.enqueue(chunk)
        else controller.close()
      },
    })
    const streamed = await fetch(mcpUrl(daemon), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: stream,
      duplex: 'half',
    } as RequestInit)
    expect(streamed.status).toBe(413)
    expect(await streamed.text()).toContain('send a smaller message')
    // The daemon goes on serving, the session included, and no connection that carried a refused
    // body is used again half-read.
    for (let i = 0; i < 5; i++) {
      const listed = await mcp(daemon, token, {
        headers: sessionHeaders(session),
        body: { jsonrpc: '2.0', id: 3, method: 'tools/list' },
      })
      expect(listed.status).toBe(200)
    }
  })

  it('answers unknown methods, disagreeing headers, a missing Mcp-Name and an unknown session as MCP says', async () => {
    const unknownLegacy = await mcp(daemon, token, {
      headers: sessionHeaders(session),
      body: { jsonrpc: '2.0', id: 4, method: 'tools/frobnicate' },
    })
    expectError(unknownLegacy, 200, -32601, /Method not found/)
    expectError(
      await mcp(daemon, token, {
        headers: modernHeaders('tools/frobnicate'),
        body: modernBody('tools/frobnicate'),
      }),
      404,
      -32601,
      /Method not found/,
    )
    expectError(
      await mcp(daemon, token, {
        headers: modernHeaders('prompts/list'),
        body: modernBody('tools/list'),
      }),
      400,
      -32020,
      /the body names method tools\/list but the Mcp-Method header names prompts\/list/,
    )
    expectError(
      await mcp(daemon, token, {
        headers: { ...modernHeaders('tools/list'), 'mcp-protocol-version': '2025-11-25' },
        body: modernBody('tools/list'),
      }),
      400,
      -32020,
      /names protocol version 2026-07-28 but the MCP-Protocol-Version header names 2025-11-25/,
    )
    expectError(
      await modernCall('mcp_alpha_echo', { text: 'x' }, null),
      400,
      -32020,
      /params.name="mcp_alpha_echo" but the required Mcp-Name header is absent/,
    )
    expectError(
      await modernCall('mcp_alpha_echo', { text: 'x' }, 'mcp_alpha_slow'),
      400,
      -32020,
      /but the Mcp-Name header names "mcp_alpha_slow"/,
    )
    expectError(
      await mcp(daemon, token, {
        headers: sessionHeaders('00000000-0000-0000-0000-000000000000'),
        body: { jsonrpc: '2.0', id: 5, method: 'tools/list' },
      }),
      404,
      -32001,
      /Session not found: .*; initialize again/,
    )
    expect(await calls()).toEqual([])
  })

  it('refuses an unknown tool and arguments that fail its input schema with -32602 naming what to fix, records the refusal, and never calls the server', async () => {
    const legacy = (name: string, args: unknown) =>
      mcp(daemon, token, { headers: sessionHeaders(session), body: legacyCall(name, args) })
    for (const send of [legacy, modernCall]) {
      expectError(
        await send('mcp_alpha_nope', {}),
        200,
        -32602,
        /no tool named "mcp_alpha_nope"; call tools\/list to see the tools this client may call/,
      )
      expectError(
        await send('mcp_alpha_echo', { text: 42 }),
        200,
        -32602,
        /^arguments do not fit the tool's input schema: arguments\/text must be string; see its inputSchema in the tool list$/,
      )
      expectError(
        await send('mcp_alpha_echo', {}),
        200,
        -32602,
        /arguments must have required property 'text'/,
      )
      expectError(
        await send('mcp_alpha_slow', { steps: -1, delayMs: 'soon' }),
        200,
        -32602,
        /arguments\/steps must be >= 0, arguments\/delayMs must be integer/,
      )
    }
    expect(await calls()).toEqual([])

    const refusals = (await daemon.events()).filter(
      (event) => event.type === 'notice' && event.message.startsWith('gateway call to '),
    )
    expect(refusals).toHaveLength(8)
    for (const refusal of refusals) {
      expect(refusal).toMatchObject({ level: 'warning', client: { label: 'bad-input (gateway)' } })
    }
    expect(refusals.map((event) => (event as { message: string }).message)).toContain(
      "gateway call to mcp_alpha_echo refused: arguments do not fit the tool's input schema: arguments must have required property 'text'; see its inputSchema in the tool list",
    )
    // Arguments that fit reach the server, once.
    const fine = await modernCall('mcp_alpha_echo', { text: 'fits' })
    expect(fine.message?.result).toMatchObject({ content: [{ type: 'text', text: 'fits' }] })
    expect((await calls()).map((entry) => entry.name)).toEqual(['echo'])
  })

  it('refuses a token revoked mid-session with 401 in both eras', async () => {
    const doomed = await createToken(daemon, 'bad-input-revoked')
    const id = await openLegacySession(daemon, doomed)
    const before = await calls()
    await daemon.cli(['gateway', 'token', 'revoke', 'bad-input-revoked'])
    const legacy = await mcp(daemon, doomed, {
      headers: sessionHeaders(id),
      body: legacyCall('mcp_alpha_echo', { text: 'late' }),
    })
    expectError(
      legacy,
      401,
      -32000,
      /unknown or revoked gateway token; see `ferry gateway token list`/,
    )
    const modern = await mcp(daemon, doomed, {
      headers: modernHeaders('tools/call', 'mcp_alpha_echo'),
      body: modernBody('tools/call', { name: 'mcp_alpha_echo', arguments: { text: 'late' } }),
    })
    expectError(modern, 401, -32000, /unknown or revoked gateway token/)
    expect(await calls()).toEqual(before)
  })
})
