import { describe, expect, it } from 'vitest'
import {
  APP_HTML_LIMIT_BYTES,
  appDisplay,
  checkApp,
  checkAppResource,
  isAppMimeType,
  type AppLoad,
} from './app-resource.js'

const MIME = 'text/html;profile=mcp-app'
const one = (item: Record<string, unknown>) => ({
  contents: [{ uri: 'ui://s/app', mimeType: MIME, ...item }],
})
const base64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64')

describe('checkAppResource', () => {
  it('accepts text or base64 HTML, decoding bytes as UTF-8', () => {
    expect(checkAppResource(one({ text: '<p>hi</p>' }), 'ui://s/app')).toEqual({
      ok: true,
      app: { html: '<p>hi</p>', csp: {}, permissions: {}, prefersBorder: null },
    })
    const html = '<p>Grüße ✓ 😀</p>'
    expect(checkAppResource(one({ blob: base64(html) }), 'ui://s/app')).toMatchObject({
      ok: true,
      app: { html },
    })
  })

  it('takes csp, permissions and prefersBorder from the content, else from the listing', () => {
    const listed = {
      ui: { prefersBorder: false, csp: { connectDomains: ['https://l.example.com'] } },
    }
    const content = {
      text: 'x',
      _meta: {
        ui: {
          csp: { resourceDomains: ['https://cdn.example.com'] },
          permissions: { camera: {}, clipboardWrite: {}, usb: {}, microphone: true },
          prefersBorder: true,
        },
      },
    }
    expect(checkAppResource(one(content), 'ui://s/app', listed)).toEqual({
      ok: true,
      app: {
        html: 'x',
        csp: { resourceDomains: ['https://cdn.example.com'] },
        permissions: { camera: {}, clipboardWrite: {} },
        prefersBorder: true,
      },
    })
    expect(checkAppResource(one({ text: 'x' }), 'ui://s/app', listed)).toMatchObject({
      ok: true,
      app: { csp: { connectDomains: ['https://l.example.com'] }, prefersBorder: false },
    })
  })

  it('gives a reason for every way the resource can be unusable', () => {
    const reason = (result: unknown) => {
      const checked = checkAppResource(result, 'ui://s/app')
      return checked.ok ? undefined : checked.reason
    }
    expect(reason({ contents: [] })).toBe(
      'resource ui://s/app has 0 content items, expected exactly 1',
    )
    expect(
      reason({ contents: [one({ text: 'a' }).contents[0], one({ text: 'b' }).contents[0]] }),
    ).toBe('resource ui://s/app has 2 content items, expected exactly 1')
    expect(reason({})).toBe('resource ui://s/app has no contents list')
    expect(reason({ contents: [{ uri: 'ui://s/app', mimeType: 'text/html', text: 'x' }] })).toBe(
      `resource has MIME type text/html, expected ${MIME}`,
    )
    expect(reason({ contents: [{ uri: 'ui://s/app', text: 'x' }] })).toBe(
      `resource has no MIME type, expected ${MIME}`,
    )
    expect(reason(one({ text: 'x'.repeat(APP_HTML_LIMIT_BYTES + 1) }))).toBe(
      'resource is 1.1 MiB, limit 1 MiB',
    )
    expect(reason(one({ text: 'x'.repeat(APP_HTML_LIMIT_BYTES) }))).toBeUndefined()
    // Counted in UTF-8 bytes, not characters.
    expect(reason(one({ text: 'é'.repeat(APP_HTML_LIMIT_BYTES / 2 + 1) }))).toBe(
      'resource is 1.1 MiB, limit 1 MiB',
    )
    expect(reason(one({ blob: base64(new Uint8Array(APP_HTML_LIMIT_BYTES * 2)) }))).toBe(
      'resource is 2 MiB, limit 1 MiB',
    )
    expect(reason(one({ blob: 'not base64!' }))).toBe('resource blob is not valid base64')
    expect(reason(one({ blob: 'abc' }))).toBe('resource blob is not valid base64')
    expect(reason(one({ blob: base64(new Uint8Array([0x3c, 0xc3, 0x28])) }))).toBe(
      'resource blob is not valid UTF-8',
    )
    expect(reason(one({}))).toBe('resource has neither text nor a base64 blob')
    expect(reason(one({ text: 'x', _meta: { ui: 'big' } }))).toBe(
      'resource _meta.ui is not an object',
    )
    expect(reason(one({ text: 'x', _meta: { ui: { permissions: ['camera'] } } }))).toBe(
      'resource _meta.ui.permissions is not an object',
    )
    expect(
      reason(one({ text: 'x', _meta: { ui: { csp: { connectDomains: ['http://127.0.0.1'] } } } })),
    ).toBe(
      'resource CSP is refused: csp.connectDomains entry "http://127.0.0.1" points at a loopback, private, local-network or special-use host, which an App may not reach',
    )
  })
})

describe('isAppMimeType', () => {
  it('accepts the App MIME type with spacing, case and a UTF-8 charset, nothing else', () => {
    for (const ok of [
      MIME,
      'text/html; profile=mcp-app',
      'TEXT/HTML;profile="mcp-app"; charset=UTF-8',
    ]) {
      expect(isAppMimeType(ok), ok).toBe(true)
    }
    for (const bad of [
      'text/html',
      'text/plain;profile=mcp-app',
      'text/html;profile=other',
      'text/html;profile=mcp-app;x=1',
      'text/html;charset=latin1;profile=mcp-app',
    ]) {
      expect(isAppMimeType(bad), bad).toBe(false)
    }
  })
})

describe('checkApp and appDisplay', () => {
  const loadAppDisplay = async (source: AppLoad) => appDisplay(source, await checkApp(source))
  const load = (read: (signal: AbortSignal) => Promise<unknown>, timeoutMs = 5000): AppLoad => ({
    serverName: 's',
    serverTool: 'chart',
    resourceUri: 'ui://s/app',
    toolInput: { n: 1 },
    toolResult: { content: [] },
    timeoutMs,
    signal: new AbortController().signal,
    read: (_uri: string, options: { signal: AbortSignal }) => read(options.signal),
    listedMeta: () => undefined,
  })

  it('gives up a read that ignores its abort signal once the limit passes', async () => {
    const started = Date.now()
    const display = await loadAppDisplay(load(() => new Promise(() => {}), 200))
    expect(display).toEqual({
      type: 'plain',
      appNotShown: 'App not shown: reading ui://s/app timed out after 0.2 s',
    })
    expect(Date.now() - started).toBeLessThan(2000)
  })

  it('describes a result without text in the fallback', async () => {
    const display = await loadAppDisplay(load(async () => one({ text: '<p>x</p>' })))
    expect(display).toMatchObject({
      type: 'mcp_app',
      toolInput: { n: 1 },
      fallbackText: 'chart on "s" returned no text; its App shows the result',
    })
  })
})
