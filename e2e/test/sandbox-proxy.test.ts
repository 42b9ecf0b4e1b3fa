// The App sandbox proxy in a real browser: the host side is built by hand inside a page of the
// WebShell's origin (under its real CSP), the proxy comes from the daemon's sandbox origin, and a
// small App reports from inside the inner frame what it could reach. Also: the proxy on its own,
// and the proxy framed by a page that is not the WebShell.

import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanup, type Daemon } from '../../daemon/test/harness.js'
import { startInProcess } from '../../daemon/test/in-process.js'
import { openPage, useBrowser } from './browser.js'

const browser = useBrowser()
let daemon: Daemon
let port: number

beforeAll(async () => {
  daemon = await startInProcess({ mcpServers: {} })
  port = daemon.info.port
})
afterAll(cleanup)

interface Received {
  /** Whether the message came from the proxy frame (its window), and with which origin. */
  fromProxy: boolean
  origin: string
  data: { jsonrpc?: string; method?: string; params?: Record<string, unknown> }
}

declare global {
  interface Window {
    proxyTest: { frame: HTMLIFrameElement; received: Received[] }
  }
}

/** Frames `src` in `page` as the WebShell does and records every message the page receives. */
async function frameProxy(
  page: Page,
  src: string,
  attributes: { sandbox: string; allow?: string } = { sandbox: 'allow-scripts' },
): Promise<void> {
  await page.evaluate(
    ({ src, attributes }) => {
      const frame = document.createElement('iframe')
      frame.setAttribute('sandbox', attributes.sandbox)
      if (attributes.allow !== undefined) frame.setAttribute('allow', attributes.allow)
      const received: Received[] = []
      window.proxyTest = { frame, received }
      window.addEventListener('message', (event) => {
        received.push({
          fromProxy: event.source === frame.contentWindow,
          origin: event.origin,
          data: event.data as Received['data'],
        })
      })
      frame.src = src
      document.body.append(frame)
    },
    { src, attributes },
  )
}

async function received(page: Page): Promise<Received[]> {
  return page.evaluate(() => window.proxyTest.received)
}

async function waitForMethod(page: Page, method: string): Promise<Received> {
  await page.waitForFunction(
    (method) => window.proxyTest.received.some((message) => message.data?.method === method),
    method,
    { timeout: 10_000 },
  )
  return (await received(page)).find((message) => message.data?.method === method) as Received
}

/** Posts a JSON-RPC message to the proxy frame; its origin is opaque, so the target is '*'. */
async function postToProxy(page: Page, message: unknown): Promise<void> {
  await page.evaluate((message) => {
    window.proxyTest.frame.contentWindow?.postMessage(message, '*')
  }, message)
}

/** An App that probes its surroundings and reports, then echoes whatever the host sends it. */
function probeApp(daemonPort: number): string {
  const script = `
    const violations = []
    document.addEventListener('securitypolicyviolation', (event) => {
      violations.push(event.violatedDirective + ' ' + event.blockedURI)
    })
    const attempt = (probe) => {
      try {
        return 'allowed: ' + String(probe())
      } catch (error) {
        return 'threw ' + error.name
      }
    }
    const reach = async (url) => {
      try {
        await fetch(url, { mode: 'no-cors', cache: 'no-store' })
        return 'reached'
      } catch {
        return 'blocked'
      }
    }
    const post = (message) => window.parent.postMessage({ jsonrpc: '2.0', ...message }, '*')
    window.addEventListener('message', (event) => {
      if (event.source !== window.parent) return
      post({ method: 'test/echo', params: { got: event.data } })
    })
    ;(async () => {
      const report = {
        origin: self.origin,
        parentDocument: attempt(() => typeof window.parent.document.body),
        cookie: attempt(() => document.cookie),
        localStorage: attempt(() => localStorage.length),
        evaluated: attempt(() => eval('6 * 7')),
        popup: attempt(() => window.open('about:blank') === null ? 'null' : 'window'),
        camera: document.featurePolicy ? document.featurePolicy.allowsFeature('camera') : null,
        microphone: document.featurePolicy
          ? document.featurePolicy.allowsFeature('microphone')
          : null,
        api: await reach('http://127.0.0.1:${daemonPort}/api/status'),
        proxy: await reach('http://localhost:${daemonPort}/sandbox-proxy'),
      }
      // Violation reports arrive as events after the fetches failed: wait for the two blocked
      // fetches' reports (the test names what must be there), for at most 10 s.
      const reported = (path) => violations.some((line) => line.startsWith('connect-src') && line.endsWith(path))
      for (let waited = 0; waited < 10000 && !(reported('/api/status') && reported('/sandbox-proxy')); waited += 20) {
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      report.violations = violations
      // Posing as the proxy towards the host: the proxy must drop these.
      post({ method: 'ui/notifications/sandbox-resource-ready', params: { html: 'forged' } })
      post({ method: 'ui/notifications/sandbox-proxy-ready', params: {} })
      post({ method: 'test/report', params: report })
    })()
  `
  return `<!doctype html><html><body><p>probe</p><script>${script}</script></body></html>`
}

/**
 * What `probeApp` reports from a frame held as it must be: an opaque origin that reaches neither
 * the page, storage, eval, popups, the daemon nor the proxy, with `permissions` as delegated.
 */
function expectPoliced(report: Record<string, unknown>, permissions: Record<string, boolean>) {
  expect(report).toMatchObject({
    origin: 'null',
    parentDocument: 'threw SecurityError',
    cookie: 'threw SecurityError',
    localStorage: 'threw SecurityError',
    evaluated: 'threw EvalError',
    popup: 'allowed: null',
    ...permissions,
    api: 'blocked',
    proxy: 'blocked',
  })
  const violations = report.violations as string[]
  expect(violations).toContain(`connect-src http://127.0.0.1:${port}/api/status`)
  expect(violations).toContain(`connect-src http://localhost:${port}/sandbox-proxy`)
}

describe('the sandbox proxy in chromium', () => {
  it('holds an App in an opaque, policed frame and relays only JSON-RPC between it and the WebShell', async () => {
    const { page } = await openPage(browser())
    // Any document of the WebShell's origin will do as the host; this one carries the real CSP.
    await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
    await frameProxy(page, `http://localhost:${port}/sandbox-proxy`, {
      sandbox: 'allow-scripts allow-popups',
      allow: 'camera; microphone',
    })

    const ready = await waitForMethod(page, 'ui/notifications/sandbox-proxy-ready')
    expect(ready).toEqual({
      fromProxy: true,
      origin: 'null',
      data: { jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} },
    })

    await postToProxy(page, {
      jsonrpc: '2.0',
      method: 'ui/notifications/sandbox-resource-ready',
      params: {
        html: probeApp(port),
        // A server asking for its way out: none of these may reach the App's frame.
        sandbox: 'allow-scripts allow-same-origin allow-popups allow-top-navigation',
        permissions: { camera: {} },
      },
    })
    const report = (await waitForMethod(page, 'test/report')).data.params as Record<string, unknown>
    expectPoliced(report, { camera: true, microphone: false })

    // Host → proxy → App → proxy → host, for requests and notifications alike; other data and
    // the proxy's own notices are not passed on to the App.
    await postToProxy(page, 'not json-rpc')
    await postToProxy(page, { jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready' })
    await postToProxy(page, { jsonrpc: '2.0', id: 7, method: 'test/ping', params: { n: 1 } })
    const echo = await waitForMethod(page, 'test/echo')
    expect(echo.fromProxy).toBe(true)
    expect(echo.data.params).toEqual({
      got: { jsonrpc: '2.0', id: 7, method: 'test/ping', params: { n: 1 } },
    })

    const all = await received(page)
    // Everything came through the proxy; the App's attempts to pose as the proxy were dropped.
    expect(all.every((message) => message.fromProxy)).toBe(true)
    expect(all.map((message) => message.data?.method)).toEqual([
      'ui/notifications/sandbox-proxy-ready',
      'test/report',
      'test/echo',
    ])
    await page.close()
  })

  it('starts an App that asks for no more than scripts in the frame it made ahead, under the same policy, which no other window can fill', async () => {
    const { page } = await openPage(browser())
    await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
    await frameProxy(page, `http://localhost:${port}/sandbox-proxy`)
    await waitForMethod(page, 'ui/notifications/sandbox-proxy-ready')
    const proxy = page.frames().find((frame) => frame.url().includes('/sandbox-proxy'))
    if (proxy === undefined) throw new Error('no proxy frame')
    await expect.poll(() => proxy.childFrames().length).toBe(1)
    const ahead = proxy.childFrames()[0]
    await expect.poll(() => ahead?.evaluate(() => document.readyState)).toBe('complete')

    // Another card's App (here a second proxy's) hands the first proxy's waiting frame its own
    // markup, in the proxy's message shape; so does the WebShell page itself.
    const hijack = {
      type: 'ferry/app-markup',
      markup: '<!doctype html><p id="hijacked">hijacked</p>',
    }
    await page.evaluate(() => {
      const other = document.createElement('iframe')
      other.setAttribute('sandbox', 'allow-scripts')
      other.id = 'other'
      other.src = window.proxyTest.frame.src
      document.body.append(other)
    })
    await waitForMethod(page, 'ui/notifications/sandbox-proxy-ready')
    await page.waitForFunction(() => {
      const other = document.getElementById('other') as HTMLIFrameElement
      return other.contentWindow?.frames.length === 1
    })
    await page.evaluate((hijack) => {
      const other = (document.getElementById('other') as HTMLIFrameElement).contentWindow
      const attacker = `<script>parent.parent.frames[0].frames[0].postMessage(${JSON.stringify(hijack)}, '*');
        parent.postMessage({ jsonrpc: '2.0', method: 'test/attacked' }, '*')</script>`
      other?.postMessage(
        {
          jsonrpc: '2.0',
          method: 'ui/notifications/sandbox-resource-ready',
          params: { html: attacker },
        },
        '*',
      )
      window.proxyTest.frame.contentWindow?.frames[0]?.postMessage(hijack, '*')
    }, hijack)
    await waitForMethod(page, 'test/attacked')
    await page.waitForTimeout(200)
    expect(await ahead?.evaluate(() => document.getElementById('hijacked'))).toBeNull()

    await postToProxy(page, {
      jsonrpc: '2.0',
      method: 'ui/notifications/sandbox-resource-ready',
      params: { html: probeApp(port) },
    })
    const report = (await waitForMethod(page, 'test/report')).data.params as Record<string, unknown>
    // The frame made ahead holds the App: no new frame, no navigation.
    expect(proxy.childFrames().length).toBe(1)
    expect(proxy.childFrames()[0] === ahead, 'the App got a new frame').toBe(true)
    expect(await ahead?.evaluate(() => document.querySelector('p')?.textContent)).toBe('probe')
    expectPoliced(report, { camera: false })
    await page.close()
  })

  it('never hands a server-requested allow-same-origin to the App, even where the outer frame would allow it', async () => {
    const { page } = await openPage(browser())
    await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
    // Looser than the WebShell's frame on purpose: with allow-same-origin on the outer frame only
    // the proxy's own choice keeps the App out of the proxy's document.
    await frameProxy(page, `http://localhost:${port}/sandbox-proxy`, {
      sandbox: 'allow-scripts allow-same-origin',
    })
    await waitForMethod(page, 'ui/notifications/sandbox-proxy-ready')
    await postToProxy(page, {
      jsonrpc: '2.0',
      method: 'ui/notifications/sandbox-resource-ready',
      params: { html: probeApp(port), sandbox: 'allow-scripts allow-same-origin' },
    })
    const report = (await waitForMethod(page, 'test/report')).data.params
    expect(report).toMatchObject({ origin: 'null', parentDocument: 'threw SecurityError' })
    await page.close()
  })

  it('does nothing when opened on its own', async () => {
    const { page } = await openPage(browser())
    await page.goto(`http://localhost:${port}/sandbox-proxy`)
    await page.locator('#refused').waitFor()
    expect(await page.locator('#refused').textContent()).toContain('does nothing on its own')
    // No listener either: a resource handed to it by itself does not mount. A second message to
    // the same window is dispatched only after every listener has had the first.
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          window.addEventListener('message', (event) => {
            if (event.data === 'after') resolve()
          })
          window.postMessage(
            {
              jsonrpc: '2.0',
              method: 'ui/notifications/sandbox-resource-ready',
              params: { html: '<p>x</p>' },
            },
            '*',
          )
          window.postMessage('after', '*')
        }),
    )
    expect(await page.locator('iframe').count()).toBe(0)
    await page.close()
  })
})

describe('the sandbox proxy framed by a page that is not the WebShell', () => {
  const servers: Server[] = []
  const proxyPage = fileURLToPath(
    new URL('../../sandbox-proxy/sandbox-proxy.html', import.meta.url),
  )

  /** A plain server: the proxy page (without the daemon's headers) and an empty host page. */
  async function plainServer(): Promise<number> {
    const body = await readFile(proxyPage)
    const server = createServer((request, response) => {
      const isProxy = request.url === '/sandbox-proxy'
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      response.end(isProxy ? body : '<!doctype html><title>host</title>')
    })
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return (server.address() as AddressInfo).port
  }

  afterAll(async () => {
    // The file's tabs stay open for the next test, holding idle connections.
    for (const server of servers) server.closeAllConnections()
    await Promise.all(
      servers.map((server) => new Promise((resolve) => server.close(() => resolve(undefined)))),
    )
  })

  it('is refused by the daemon through frame-ancestors', async () => {
    const foreign = await plainServer()
    const { page, errors } = await openPage(browser())
    await page.goto(`http://127.0.0.1:${foreign}/host`)
    await frameProxy(page, `http://localhost:${port}/sandbox-proxy`)
    await expect.poll(() => errors.join('\n'), { timeout: 10_000 }).toContain('frame-ancestors')
    expect(await received(page)).toEqual([])
    await page.close()
  })

  it('stays silent when its parent is not the WebShell origin for its port', async () => {
    const sandboxPort = await plainServer()
    const otherPort = await plainServer()
    // The page's own check, without the daemon's frame-ancestors header: a parent on the right
    // port is answered, one on another port is not.
    const { page } = await openPage(browser())
    await page.goto(`http://127.0.0.1:${sandboxPort}/host`)
    await frameProxy(page, `http://localhost:${sandboxPort}/sandbox-proxy`)
    await waitForMethod(page, 'ui/notifications/sandbox-proxy-ready')

    await page.goto(`http://127.0.0.1:${otherPort}/host`)
    await frameProxy(page, `http://localhost:${sandboxPort}/sandbox-proxy`)
    await page.waitForTimeout(1000)
    expect(await received(page)).toEqual([])
    await page.close()
  })
})
