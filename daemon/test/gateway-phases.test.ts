import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { StatusResponse } from '../src/protocol/index.js'
import { cleanup, fixture, waitFor, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'
import {
  createToken,
  errorOf,
  INITIALIZE,
  mcp,
  modernBody,
  modernHeaders,
  MODERN,
  openLegacySession,
  sdkClient,
  sessionHeaders,
} from './gateway-wire.js'

const LIST = { jsonrpc: '2.0', id: 2, method: 'tools/list' }

function settingsWith(gateway: Record<string, unknown>) {
  return { mcpServers: { alpha: fixture([]) }, gateway }
}

/** Writes the settings file and applies it with `ferry reload`. */
async function reload(daemon: Daemon, gateway: Record<string, unknown>): Promise<void> {
  await daemon.writeSettings(settingsWith(gateway))
  const reloaded = await daemon.cli(['reload'])
  expect(reloaded.code, reloaded.stderr).toBe(0)
}

function toolNames(answer: { message: Record<string, unknown> | undefined }): string[] {
  const result = answer.message?.result as { tools: Array<{ name: string }> } | undefined
  return (result?.tools ?? []).map((tool) => tool.name)
}

describe('the gateway phases on the wire', () => {
  let daemon: Daemon
  let token: string

  beforeAll(async () => {
    daemon = await startInProcess(settingsWith({ phase: 1 }))
    await daemon.waitForStatus('alpha', 'ready')
    token = await createToken(daemon, 'phases')
  })
  afterAll(cleanup)

  it('phase 1: initialize opens a session, its requests carry it, a request without one is told to initialize, and DELETE ends it', async () => {
    const opened = await mcp(daemon, token, { body: INITIALIZE })
    expect(opened.status).toBe(200)
    const id = opened.headers.get('mcp-session-id') as string
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    expect(opened.message?.result).toMatchObject({
      protocolVersion: '2025-11-25',
      serverInfo: { name: 'ferry' },
    })
    const listed = await mcp(daemon, token, { headers: sessionHeaders(id), body: LIST })
    expect(listed.status).toBe(200)
    expect(toolNames(listed)).toContain('mcp_alpha_echo')

    const sessionless = await mcp(daemon, token, { body: LIST })
    expect(sessionless.status).toBe(400)
    expect(errorOf(sessionless).message).toMatch(/no session; .* sends initialize first/)
    const modern = await mcp(daemon, token, {
      headers: modernHeaders('tools/list'),
      body: modernBody('tools/list'),
    })
    expect(modern.status).toBe(200)
    expect(modern.headers.get('mcp-session-id')).toBeNull()
    expect(toolNames(modern)).toContain('mcp_alpha_echo')

    const deleted = await mcp(daemon, token, { method: 'DELETE', headers: sessionHeaders(id) })
    expect(deleted.status).toBe(200)
    const after = await mcp(daemon, token, { headers: sessionHeaders(id), body: LIST })
    expect(after.status).toBe(404)
    expect(errorOf(after)).toMatchObject({ code: -32001 })
  })

  it('phase 2 after a reload: a legacy request without a session is served statelessly, and a session opened before still works', async () => {
    const before = await openLegacySession(daemon, token)
    await reload(daemon, { phase: 2 })

    const initialize = await mcp(daemon, token, { body: INITIALIZE })
    expect(initialize.status).toBe(200)
    expect(initialize.headers.get('mcp-session-id')).toBeNull()
    const stateless = await mcp(daemon, token, { body: LIST })
    expect(stateless.status).toBe(200)
    expect(stateless.headers.get('mcp-session-id')).toBeNull()
    expect(toolNames(stateless)).toContain('mcp_alpha_echo')
    const call = await mcp(daemon, token, {
      body: {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'mcp_alpha_echo', arguments: { text: 'stateless' } },
      },
    })
    expect(call.message?.result).toMatchObject({ content: [{ type: 'text', text: 'stateless' }] })

    const kept = await mcp(daemon, token, { headers: sessionHeaders(before), body: LIST })
    expect(kept.status).toBe(200)
    expect(toolNames(kept)).toContain('mcp_alpha_echo')
    await reload(daemon, { phase: 1 })
  })

  it('phase 3 after a reload: initialize gets 400 with -32022 naming 2026-07-28, GET and DELETE 405, and an auto client still works', async () => {
    await reload(daemon, { phase: 3 })
    const initialize = await mcp(daemon, token, { body: INITIALIZE })
    expect(initialize.status).toBe(400)
    expect(errorOf(initialize)).toMatchObject({
      code: -32022,
      data: { supported: [MODERN], requested: '2025-11-25' },
    })
    for (const method of ['GET', 'DELETE']) {
      const refused = await mcp(daemon, token, { method })
      expect(refused.status, method).toBe(405)
      expect(refused.headers.get('allow')).toBe('POST')
    }
    await expect(sdkClient(daemon, token, 'legacy')).rejects.toThrow(/-32022|2026-07-28/)
    const modern = await sdkClient(daemon, token, 'auto')
    expect(modern.client.getProtocolEra()).toBe('modern')
    const echoed = await modern.client.callTool({
      name: 'mcp_alpha_echo',
      arguments: { text: 'phase 3' },
    })
    expect(echoed.content).toEqual([{ type: 'text', text: 'phase 3' }])
    expect(modern.sent.every((request) => request.session === null)).toBe(true)
    await modern.client.close()

    await reload(daemon, { phase: 1 })
    expect((await mcp(daemon, token, { body: INITIALIZE })).status).toBe(200)
  })

  it('answers /mcp with 404 while gateway.enabled is false, and serves it again once it is true', async () => {
    await reload(daemon, { enabled: false })
    const off = await mcp(daemon, token, { body: INITIALIZE })
    expect(off.status).toBe(404)
    expect(errorOf(off).message).toContain('gateway.enabled is false')
    await reload(daemon, {})
    expect((await mcp(daemon, token, { body: INITIALIZE })).status).toBe(200)
  })

  it('ends a legacy session idle past sessionIdleMs with 404, and the SDK client connects again', async () => {
    const legacy = await sdkClient(daemon, token, 'legacy')
    expect(legacy.client.getProtocolEra()).toBe('legacy')
    await legacy.client.listTools()
    await reload(daemon, { sessionIdleMs: 1 })
    // The session is now idle for longer than a millisecond.
    const since = Date.now()
    await waitFor(() => Date.now() - since > 2)
    await expect(legacy.client.listTools()).rejects.toThrow(/404|Session not found/)
    await legacy.client.close()
    await reload(daemon, {})
    const again = await sdkClient(daemon, token, 'legacy')
    expect((await again.client.listTools()).tools.map((t) => t.name)).toContain('mcp_alpha_echo')
    await again.client.close()
  })

  it('ends the session idle longest when maxSessions are open and another starts', async () => {
    await reload(daemon, { maxSessions: 2 })
    const first = await openLegacySession(daemon, token)
    const second = await openLegacySession(daemon, token)
    expect((await mcp(daemon, token, { headers: sessionHeaders(first), body: LIST })).status).toBe(
      200,
    )
    const third = await openLegacySession(daemon, token)
    const evicted = await mcp(daemon, token, { headers: sessionHeaders(second), body: LIST })
    expect(evicted.status).toBe(404)
    expect(errorOf(evicted).message).toContain('initialize again')
    for (const id of [first, third]) {
      expect((await mcp(daemon, token, { headers: sessionHeaders(id), body: LIST })).status).toBe(
        200,
      )
    }
    const log = await readFile(join(daemon.stateDir, 'daemon.log'), 'utf8')
    expect(log).toContain('"kind":"gateway.session_evicted","client":"phases"')
    await reload(daemon, {})
  })
})

describe('the gateway settings', () => {
  afterAll(cleanup)

  it('ignores a gateway block in workspace settings, and warns', async () => {
    const daemon = await startInProcess(null, {
      userSettings: { mcpServers: { alpha: fixture([]) } },
      workspaceSettings: { gateway: { enabled: false, phase: 3 } },
    })
    const token = await createToken(daemon, 'workspace')
    const opened = await mcp(daemon, token, { body: INITIALIZE })
    expect(opened.status).toBe(200)
    expect(opened.headers.get('mcp-session-id')).not.toBeNull()
    const status = (await (await daemon.api('/status')).json()) as StatusResponse
    expect(status.warnings).toContain(
      'gateway: ignored in workspace settings; set the gateway in your user settings',
    )
  })
})

describe('the gateway across a daemon restart', () => {
  afterAll(cleanup)

  it('keeps a modern client calling with no new handshake, while a legacy client gets 404 and connects again', async () => {
    const settings = settingsWith({})
    const first = await startInProcess(settings)
    await first.waitForStatus('alpha', 'ready')
    const token = await createToken(first, 'restart')
    const modern = await sdkClient(first, token, 'auto')
    const legacy = await sdkClient(first, token, 'legacy')
    expect(modern.client.getProtocolEra()).toBe('modern')
    expect(legacy.client.getProtocolEra()).toBe('legacy')
    for (const { client } of [modern, legacy]) {
      const echoed = await client.callTool({
        name: 'mcp_alpha_echo',
        arguments: { text: 'before' },
      })
      expect(echoed.content).toEqual([{ type: 'text', text: 'before' }])
    }

    await first.stop()
    const second = await startInProcess(settings, { stateDir: first.stateDir })
    expect(second.info.port).toBe(first.info.port)
    await second.waitForStatus('alpha', 'ready')

    const sentBefore = modern.sent.length
    const after = await modern.client.callTool({
      name: 'mcp_alpha_echo',
      arguments: { text: 'after' },
    })
    expect(after.content).toEqual([{ type: 'text', text: 'after' }])
    const sinceRestart = modern.sent.slice(sentBefore).map((request) => request.method)
    expect(sinceRestart).toEqual(['tools/call'])
    expect(modern.sent.every((request) => request.session === null)).toBe(true)

    // The SDK's legacy client does not initialise again by itself: it reports the 404.
    await expect(
      legacy.client.callTool({ name: 'mcp_alpha_echo', arguments: { text: 'after' } }),
    ).rejects.toThrow(/404|Session not found/)
    const fresh = await sdkClient(second, token, 'legacy')
    const again = await fresh.client.callTool({
      name: 'mcp_alpha_echo',
      arguments: { text: 'again' },
    })
    expect(again.content).toEqual([{ type: 'text', text: 'again' }])
    for (const { client } of [modern, legacy, fresh]) await client.close().catch(() => {})
  })
})
