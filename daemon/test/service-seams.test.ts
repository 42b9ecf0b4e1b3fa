// The seams that let a behaviour be tested without processes or sockets: a connection's transport
// made by a factory (an SDK server in this process over the SDK's in-memory transport), and the
// routes served by `app.request()` over the service interface, the way hono's own tests do.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFixtureServer } from '../../e2e/fixtures/mcp-server.js'
import { createApp } from '../src/http/app.js'
import type { CallStreamLine, CallResponse, ServerInfo } from '../src/protocol/index.js'
import { cleanup } from './harness.js'
import { startInProcess, type InProcessDaemon } from './in-process.js'

const HOST = 'ferry.test:1'
const TOKEN = 'route-test-token'

describe('in-process seams', () => {
  let daemon: InProcessDaemon
  let app: ReturnType<typeof createApp>

  beforeAll(async () => {
    daemon = await startInProcess(
      { mcpServers: { mem: { command: 'served-in-memory', versionNegotiation: 'legacy' } } },
      { inMemory: { mem: () => createFixtureServer({ name: 'mem' }) } },
    )
    await daemon.waitForStatus('mem', 'ready')
    const { ferry, sessions, log } = daemon.handle
    app = createApp({
      catalog: ferry,
      sessions,
      token: TOKEN,
      log,
      hosts: () => new Set([HOST]),
      origins: () => new Set([`http://${HOST}`]),
      staticFiles: new Map(),
      sandboxHost: () => '',
      sandboxPage: undefined,
      status: () => ({
        pid: 0,
        version: 'test',
        url: `http://${HOST}/`,
        stateDir: '',
        startedAt: '',
      }),
      gateway: () => ({ url: `http://${HOST}/mcp`, legacySessions: 0 }),
      gatewayTokens: {
        tokens: undefined as never,
        url: () => `http://${HOST}/mcp`,
        checkSession: async () => {},
      },
      shutdown: () => {},
    })
  })
  afterAll(cleanup)

  const request = (path: string, init: RequestInit = {}) =>
    app.request(path, {
      ...init,
      headers: { host: HOST, authorization: `Bearer ${TOKEN}`, ...init.headers },
    })

  it('reaches an SDK server served in this process, with no process of its own', async () => {
    const servers = (await (await daemon.api('/servers')).json()) as ServerInfo[]
    expect(servers.find((server) => server.name === 'mem')).toMatchObject({ status: 'ready' })
    const response = await daemon.api('/call', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'mcp_mem_echo', arguments: { text: 'over memory' } }),
    })
    const body = (await response.json()) as CallResponse
    expect(body.result.content).toEqual([{ type: 'text', text: 'over memory' }])
  })

  it('answers a route through app.request, refusing a request without the token', async () => {
    const refused = await app.request('/api/servers', { headers: { host: HOST } })
    expect(refused.status).toBe(401)
    const listed = (await (await request('/api/servers')).json()) as ServerInfo[]
    expect(listed.map((server) => server.name)).toEqual(['mem'])
  })

  it('streams one call as NDJSON lines through the service call, in order', async () => {
    const response = await request('/api/call', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' },
      body: JSON.stringify({
        tool: 'mcp_mem_slow',
        arguments: { steps: 3, delayMs: 0 },
        yes: true,
      }),
    })
    const lines = (await response.text())
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as CallStreamLine)
    expect(Object.keys(lines[0] ?? {})).toEqual(['call'])
    expect(lines.filter((line) => 'progress' in line).length).toBeGreaterThan(0)
    expect(Object.keys(lines.at(-1) ?? {})).toEqual(['result'])
  })

  it('refuses arguments that do not fit the tool before the server sees them, on every path', async () => {
    const response = await request('/api/call', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'mcp_mem_echo', arguments: { text: 42 } }),
    })
    expect(response.status).toBe(422)
    const body = (await response.json()) as { error: { code: string; message: string } }
    expect(body.error.code).toBe('invalid_arguments')
  })
})
