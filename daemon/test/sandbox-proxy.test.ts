// The sandbox host name and the App proxy route, probed over real HTTP: what `localhost:<port>`
// serves (the proxy page, a redirect, nothing else), the headers and the CSP built from a
// declaration, and the 400s for declarations that try to inject into the policy.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { MAX_CSP_ENTRIES } from '../src/apps/csp-domains.js'
import { cleanup, send, type RawResponse, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'

let daemon: Daemon
let port: number
let webshellOrigin: string

beforeAll(async () => {
  daemon = await startInProcess({ mcpServers: {} })
  port = daemon.info.port
  webshellOrigin = `http://127.0.0.1:${port}`
})
afterAll(cleanup)

/**
 * A request to the daemon's address with the given Host; node:http sends exactly that header, so
 * the answer does not depend on how this machine resolves `localhost`.
 */
function get(
  path: string,
  host: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<RawResponse> {
  return send(port, { path, method, headers: { host, ...headers } })
}

const sandbox = () => `localhost:${port}`
const webshell = () => `127.0.0.1:${port}`
const proxyPath = (csp: unknown) =>
  `/sandbox-proxy?csp=${encodeURIComponent(typeof csp === 'string' ? csp : JSON.stringify(csp))}`

/** The policy as a map from directive name to its sources. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(';').map((part) => {
      const [name = '', ...sources] = part.trim().split(/\s+/)
      return [name, sources]
    }),
  )
}

describe('the sandbox proxy route', () => {
  it('serves the same static page before auth under the sandbox host, with no-store, nosniff and no cookies', async () => {
    const first = await get('/sandbox-proxy', sandbox())
    expect(first.status).toBe(200)
    expect(first.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(first.headers['cache-control']).toBe('no-store')
    expect(first.headers['x-content-type-options']).toBe('nosniff')
    expect(first.headers['referrer-policy']).toBe('strict-origin')
    expect(first.headers['set-cookie']).toBeUndefined()
    expect(first.headers['access-control-allow-origin']).toBeUndefined()
    expect(first.body).toContain('ui/notifications/sandbox-proxy-ready')

    // Nothing of the request reaches the body: another declaration, a token, an Origin.
    const declared = { resourceDomains: ['https://cdn.example'] }
    const others = [
      await get(proxyPath(declared), sandbox()),
      await get('/sandbox-proxy?x=<script>', sandbox(), {
        authorization: `Bearer ${daemon.info.token}`,
        origin: webshellOrigin,
      }),
      await get('/sandbox-proxy', sandbox(), {}, 'HEAD'),
    ]
    expect(others.map((response) => response.status)).toEqual([200, 200, 200])
    expect(others[0]?.body).toBe(first.body)
    expect(others[1]?.body).toBe(first.body)
    expect(first.body).not.toContain(daemon.info.token)
  })

  it('answers with the fixed App policy for no declaration, with no self and the WebShell as the only ancestor', async () => {
    const response = await get('/sandbox-proxy', sandbox())
    const policy = response.headers['content-security-policy'] as string
    expect(policy).toBe(
      [
        "default-src 'none'",
        "script-src 'unsafe-inline'",
        "style-src 'unsafe-inline'",
        'img-src data: blob:',
        'font-src data:',
        'media-src data: blob:',
        "connect-src 'none'",
        "frame-src 'none'",
        "worker-src 'none'",
        "base-uri 'none'",
        "form-action 'none'",
        "object-src 'none'",
        `frame-ancestors ${webshellOrigin}`,
      ].join('; '),
    )
    // An empty declaration is the same as none.
    const empty = await get(proxyPath({}), sandbox())
    expect(empty.headers['content-security-policy']).toBe(policy)
  })

  it('places declared domains into their directives', async () => {
    const response = await get(
      proxyPath({
        connectDomains: ['https://api.example.com', 'wss://live.example.com:8443'],
        resourceDomains: ['https://*.cdn.example.com', 'https://fonts.example.org:8443'],
        frameDomains: ['https://www.youtube.com'],
        baseUriDomains: ['https://base.example'],
      }),
      sandbox(),
    )
    expect(response.status).toBe(200)
    const policy = response.headers['content-security-policy'] as string
    expect(policy).not.toContain('self')
    const map = directives(policy)
    const resources = ['https://*.cdn.example.com', 'https://fonts.example.org:8443']
    expect(map.get('default-src')).toEqual(["'none'"])
    expect(map.get('script-src')).toEqual(["'unsafe-inline'", ...resources])
    expect(map.get('style-src')).toEqual(["'unsafe-inline'", ...resources])
    expect(map.get('img-src')).toEqual(['data:', 'blob:', ...resources])
    expect(map.get('font-src')).toEqual(['data:', ...resources])
    expect(map.get('media-src')).toEqual(['data:', 'blob:', ...resources])
    expect(map.get('connect-src')).toEqual([
      'https://api.example.com',
      'wss://live.example.com:8443',
    ])
    expect(map.get('frame-src')).toEqual(['https://www.youtube.com'])
    expect(map.get('worker-src')).toEqual(["'none'"])
    expect(map.get('base-uri')).toEqual(['https://base.example'])
    expect(map.get('form-action')).toEqual(["'none'"])
    expect(map.get('object-src')).toEqual(["'none'"])
    expect(map.get('frame-ancestors')).toEqual([webshellOrigin])
  })

  it('refuses every declaration that could inject into the policy, naming the bad entry', async () => {
    type Field = 'connectDomains' | 'resourceDomains' | 'frameDomains' | 'baseUriDomains'
    const bad: Array<[Field, string]> = [
      ['connectDomains', 'http://x; script-src *'],
      ['resourceDomains', 'https://a.example;'],
      ['resourceDomains', 'https://a.example,https://b.example'],
      ['resourceDomains', "'unsafe-eval'"],
      ['resourceDomains', "https://a.example 'unsafe-eval'"],
      ['resourceDomains', '"https://a.example"'],
      ['resourceDomains', 'https://a.example\n'],
      ['resourceDomains', 'https://a.example\tb'],
      ['resourceDomains', ' https://a.example'],
      ['resourceDomains', '*'],
      ['resourceDomains', 'https:'],
      ['resourceDomains', 'https://*'],
      ['resourceDomains', 'data:'],
      ['resourceDomains', 'blob:'],
      ['resourceDomains', 'javascript:alert(1)'],
      ['resourceDomains', "'self'"],
      ['resourceDomains', "'nonce-abc'"],
      ['resourceDomains', 'a.example'],
      ['resourceDomains', 'ftp://a.example'],
      ['resourceDomains', 'https://a.example/path'],
      ['resourceDomains', 'https://a.example/'],
      ['resourceDomains', 'https://a.example?x'],
      ['resourceDomains', 'https://user@a.example'],
      ['resourceDomains', 'https://a.example:*'],
      ['resourceDomains', 'https://a.example:65536'],
      ['resourceDomains', 'https://a.*.example'],
      ['resourceDomains', 'https://*.1.2.3'],
      ['resourceDomains', 'https://*.com'],
      ['resourceDomains', 'https://2130706433'],
      ['resourceDomains', 'https://0x7f000001'],
      ['resourceDomains', 'https://bücher.example'],
      ['baseUriDomains', 'https://a_b.example'],
      ['frameDomains', 'https://x.example; frame-ancestors *'],
      ['connectDomains', 'http://localhost'],
      ['connectDomains', `http://localhost:${port}`],
      ['connectDomains', 'ws://LOCALHOST:1234'],
      ['connectDomains', 'http://app.localhost'],
      ['connectDomains', 'https://*.localhost'],
      ['connectDomains', 'http://127.0.0.1'],
      ['connectDomains', 'http://127.1.2.3:8080'],
      ['connectDomains', 'http://0.0.0.0'],
      ['connectDomains', 'http://10.0.0.1'],
      ['connectDomains', 'http://172.16.0.1'],
      ['connectDomains', 'http://172.31.255.255'],
      ['connectDomains', 'http://192.168.1.1'],
      ['connectDomains', 'http://169.254.169.254'],
      ['connectDomains', 'http://[::1]'],
      ['connectDomains', 'http://[fc00::1]'],
      ['connectDomains', 'http://[fe80::1]'],
      ['connectDomains', 'http://[::ffff:7f00:1]'],
      ['connectDomains', 'https://intranet'],
      ['frameDomains', 'http://localhost'],
      ['frameDomains', 'http://127.0.0.1'],
      ['frameDomains', 'http://192.168.0.10'],
      // The daemon's own origins and the user's network are refused where the App only loads from.
      ['resourceDomains', `http://localhost:${port}`],
      ['resourceDomains', `http://127.0.0.1:${port}`],
      ['resourceDomains', `http://[::1]:${port}`],
      ['resourceDomains', 'http://localhost:5173'],
      ['resourceDomains', 'http://192.168.1.1'],
      ['resourceDomains', 'http://198.18.0.1'],
      ['resourceDomains', 'http://255.255.255.255'],
      ['resourceDomains', 'http://224.0.0.251'],
      ['resourceDomains', 'http://[2002:7f00:1::]'],
      ['resourceDomains', 'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]'],
      ['resourceDomains', 'http://[ff02::1]'],
      ['baseUriDomains', `http://localhost:${port}`],
      ['baseUriDomains', 'http://10.0.0.1'],
    ]
    for (const [field, entry] of bad) {
      const response = await get(
        proxyPath({
          resourceDomains: ['https://ok.example'],
          [field]: ['https://ok.example', entry],
        }),
        sandbox(),
      )
      expect(response.status, `${field}: ${JSON.stringify(entry)}`).toBe(400)
      expect(response.headers['content-type']).toBe('application/json')
      expect(response.headers['x-content-type-options']).toBe('nosniff')
      const body = JSON.parse(response.body) as { error: { code: string; message: string } }
      expect(body.error.code).toBe('bad_request')
      expect(body.error.message).toContain(`csp.${field} entry ${JSON.stringify(entry)}`)
      // A refusal is inert text the WebShell can frame, never the App policy.
      expect(response.headers['content-security-policy']).toBe(
        `default-src 'none'; frame-ancestors ${webshellOrigin}`,
      )
    }
  })

  it('accepts public hosts that look local', async () => {
    const response = await get(
      proxyPath({
        resourceDomains: ['https://[2001:db8::1]', 'https://198.20.0.1'],
        baseUriDomains: ['https://localhost.example'],
        connectDomains: ['https://172.32.0.1', 'https://8.8.8.8', 'https://localhost.example'],
      }),
      sandbox(),
    )
    expect(response.status, response.body).toBe(200)
    expect(
      directives(response.headers['content-security-policy'] as string).get('connect-src'),
    ).toEqual(['https://172.32.0.1', 'https://8.8.8.8', 'https://localhost.example'])
  })

  it('refuses malformed and oversized declarations', async () => {
    const many = Array.from({ length: MAX_CSP_ENTRIES + 1 }, (_, i) => `https://h${i}.example.com`)
    const cases: Array<[string, string]> = [
      [proxyPath('{"connectDomains":'), 'malformed JSON'],
      [proxyPath(''), 'malformed JSON'],
      [proxyPath('[]'), 'csp is not an object'],
      [proxyPath('null'), 'csp is not an object'],
      [proxyPath('"https://a.example"'), 'csp is not an object'],
      [proxyPath({ connectDomains: 'https://a.example' }), 'csp.connectDomains is not a list'],
      [proxyPath({ resourceDomains: null }), 'csp.resourceDomains is not a list'],
      [proxyPath({ frameDomains: [42] }), 'csp.frameDomains[0] is not a string'],
      [proxyPath({ scriptDomains: ['https://a.example'] }), 'unknown field "scriptDomains"'],
      [proxyPath({ resourceDomains: many }), `at most ${MAX_CSP_ENTRIES} allowed`],
      [
        `${proxyPath({})}&csp=${encodeURIComponent('{"connectDomains":["https://a.example"]}')}`,
        'only once',
      ],
    ]
    for (const [path, reason] of cases) {
      const response = await get(path, sandbox())
      expect(response.status, path).toBe(400)
      expect(JSON.parse(response.body)).toEqual({
        error: { code: 'bad_request', message: expect.stringContaining(reason) },
      })
    }
    // The limit itself is still fine.
    const limit = await get(
      proxyPath({ resourceDomains: many.slice(0, MAX_CSP_ENTRIES) }),
      sandbox(),
    )
    expect(limit.status).toBe(200)
  })

  it('refuses foreign and null origins and other methods under the sandbox host', async () => {
    for (const origin of ['http://evil.example', 'null', `http://localhost:${port}`]) {
      const response = await get('/sandbox-proxy', sandbox(), { origin })
      expect(response.status, origin).toBe(403)
    }
    const post = await get('/sandbox-proxy', sandbox(), {}, 'POST')
    expect(post.status).toBe(403)
  })
})

describe('the sandbox host name', () => {
  it('serves nothing of the WebShell or the API, and sends / to the WebShell', async () => {
    const root = await get('/', sandbox())
    expect([302, 303]).toContain(root.status)
    expect(root.headers.location).toBe(`${webshellOrigin}/`)
    expect(root.body).toBe('')

    const paths = [
      '/index.html',
      '/favicon.svg',
      '/api/status',
      '/api/servers',
      '/api/sessions',
      '/sandbox-proxy/',
      '/sandbox-proxy/../index.html',
      '/nowhere',
    ]
    for (const path of paths) {
      const refused = await get(path, sandbox(), { authorization: `Bearer ${daemon.info.token}` })
      expect([403, 404], `${path} under ${sandbox()}`).toContain(refused.status)
      expect(refused.body).not.toContain('<html')
      expect(refused.body).not.toContain('"pid"')
    }
    // The same requests under the WebShell's own host are answered: the refusals are the host's.
    expect((await get('/favicon.svg', webshell())).status).toBe(200)
    expect((await get('/', webshell())).status).toBe(200)
    expect(
      (await get('/api/status', webshell(), { authorization: `Bearer ${daemon.info.token}` }))
        .status,
    ).toBe(200)
  })

  it('is the only host the proxy is served under', async () => {
    for (const host of [webshell(), `localhost:${port + 1}`, `evil.example:${port}`, 'localhost']) {
      const response = await get('/sandbox-proxy', host)
      expect([403, 404], host).toContain(response.status)
      expect(response.body).not.toContain('sandbox-proxy-ready')
    }
  })

  it('refuses the WebSocket upgrade under the sandbox host', async () => {
    const upgrade = (host: string) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(
          `ws://127.0.0.1:${port}/api/stream`,
          ['ferry.v1', `ferry.auth.${daemon.info.token}`],
          { headers: { host, origin: webshellOrigin } },
        )
        ws.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0))
        ws.on('open', () => {
          ws.close()
          resolve(101)
        })
        ws.on('error', () => {})
      })
    expect(await upgrade(sandbox())).toBe(403)
    expect(await upgrade(webshell())).toBe(101)
  })

  it('lets the WebShell frame the sandbox origin exactly', async () => {
    const page = await get('/', webshell())
    const policy = directives(page.headers['content-security-policy'] as string)
    expect(policy.get('frame-src')).toEqual([`http://localhost:${port}`])
  })
})
