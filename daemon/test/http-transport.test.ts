import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, httpServerPath, sseServerPath } from './harness.js'
import { startInProcess } from './in-process.js'

const servers: Array<() => void> = []
afterEach(async () => {
  for (const stop of servers.splice(0)) stop()
  await cleanup()
})

async function startHttpFixture(path = httpServerPath): Promise<string> {
  const child = spawn(process.execPath, [path, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  servers.push(() => child.kill('SIGTERM'))
  const lines = createInterface({ input: child.stdout })
  for await (const line of lines) return (JSON.parse(line) as { url: string }).url
  throw new Error('http fixture printed no url')
}

interface Captured {
  'mcp-protocol-version': string | null
  'mcp-method': string | null
  'mcp-name': string | null
  methods: string[]
}

describe('Streamable HTTP (legacy, sessionful)', () => {
  it('sends MCP-Protocol-Version and Mcp-Method on every POST and Mcp-Name on tools/call', async () => {
    const url = await startHttpFixture()
    const daemon = await startInProcess({ mcpServers: { remote: { httpUrl: url } } })
    expect(await daemon.waitForStatus('remote', 'ready')).toMatchObject({
      transport: 'streamable-http',
      era: 'legacy',
    })
    const call = await daemon.cli(['call', 'mcp_remote_echo', '{"text":"over http"}'])
    expect(call).toMatchObject({ code: 0, stdout: 'over http\n' })

    const captured = (await (await fetch(new URL('/captured', url))).json()) as Captured[]
    expect(captured.length).toBeGreaterThanOrEqual(3)
    for (const post of captured) {
      expect(post['mcp-protocol-version'], post.methods.join()).toMatch(/^\d{4}-\d{2}-\d{2}$/)
      expect(post['mcp-method']).toBe(post.methods[0])
    }
    const toolCall = captured.find((post) => post.methods.includes('tools/call'))
    expect(toolCall?.['mcp-name']).toBe('echo')
    expect(captured.map((post) => post['mcp-method'])).toEqual(
      expect.arrayContaining([
        'initialize',
        'notifications/initialized',
        'tools/list',
        'tools/call',
      ]),
    )
  })

  it('refuses "auto" for an SSE server as a configuration error', async () => {
    const daemon = await startInProcess({
      mcpServers: {
        remote: { url: 'http://127.0.0.1:9/mcp', type: 'sse', versionNegotiation: 'auto' },
      },
    })
    const server = (await daemon.servers()).find((s) => s.name === 'remote')
    expect(server?.status).toBe('invalid')
    expect(server?.error).toContain('"auto" needs Streamable HTTP')
  })
})

describe('SSE', () => {
  it('connects, calls and sends the configured headers, with ${VAR} expanded, on the stream and every POST', async () => {
    const url = await startHttpFixture(sseServerPath)
    const daemon = await startInProcess(
      {
        mcpServers: {
          legacy: {
            url,
            headers: { authorization: 'Bearer ${FERRY_TEST_SSE_TOKEN}', 'x-test': 'yes' },
          },
        },
      },
      { env: { FERRY_TEST_SSE_TOKEN: 'sse-secret' } },
    )
    expect(await daemon.waitForStatus('legacy', 'ready')).toMatchObject({ transport: 'sse' })
    const call = await daemon.cli(['call', 'mcp_legacy_echo', '{"text":"over sse"}'])
    expect(call).toMatchObject({ code: 0, stdout: 'over sse\n' })

    const captured = (await (await fetch(new URL('/captured', url))).json()) as Array<{
      method: string
      headers: Record<string, string>
    }>
    expect(captured.map((request) => request.method)).toContain('GET')
    expect(captured.filter((request) => request.method === 'POST').length).toBeGreaterThan(2)
    for (const request of captured) {
      expect(request.headers.authorization).toBe('Bearer sse-secret')
      expect(request.headers['x-test']).toBe('yes')
    }
  })
})
