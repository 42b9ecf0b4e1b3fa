// What else a live MCP App may ask, against a real daemon and fixture server through a real
// WebSocket client speaking for it: its own server's resources (within the App read limits), and
// its messages, model context, log lines, links and downloads as transcript events, all within
// the App's request budget; and the latest model context of each App over REST.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppsResponse } from '../src/protocol/index.js'
import { APP_REQUEST_BURST } from '../src/sessions/app-budget.js'
import { cleanup, type Daemon } from './harness.js'
import {
  HOST_READ_TIMEOUT_MS,
  appCall,
  openTab,
  refusal,
  startAppDaemon,
  type Reply,
} from './app-requests-rig.js'

let daemon: Daemon

beforeAll(async () => {
  daemon = await startAppDaemon()
})

afterAll(cleanup)

/** `GET /api/sessions/{id}/apps` of the default session. */
async function apps(): Promise<AppsResponse> {
  const status = (await (await daemon.api('/status')).json()) as { defaultSession: string }
  const response = await daemon.api(`/sessions/${status.defaultSession}/apps`)
  expect(response.status).toBe(200)
  return (await response.json()) as AppsResponse
}

describe('an MCP App asking for more than tools', () => {
  it("reads its own server's resources within the App limits, recording each read", async () => {
    const tab = await openTab(daemon)
    const parent = await appCall(daemon)
    const appId = await tab.open(parent)
    const own = await tab.ask(appId, 'resources/read', { uri: 'fixture://host/own' })
    expect(own).toMatchObject({
      ok: true,
      result: { contents: [{ uri: 'fixture://host/own', text: 'own resource of host' }] },
    })
    const read = await tab.event(
      (e) => e.type === 'resource.read' && e.uri === 'fixture://host/own',
    )
    expect(read).toMatchObject({ server: 'host', client: { kind: 'webshell', label: 'App tab' } })

    expect(
      refusal(await tab.ask(appId, 'resources/read', { uri: 'ui://fixture/too-big' })),
    ).toEqual({
      code: 'payload_too_large',
      message:
        'resource ui://fixture/too-big of server "host" is 1.3 MiB, over the 1.0 MiB limit for reads',
    })
    expect(refusal(await tab.ask(appId, 'resources/read', { uri: 'fixture://host/hang' }))).toEqual(
      {
        code: 'timeout',
        message: `server "host" did not answer the read of fixture://host/hang within ${HOST_READ_TIMEOUT_MS / 1000} s (its appResourceTimeoutMs)`,
      },
    )
    await tab.event((e) => e.type === 'resource.read_failed' && e.uri === 'fixture://host/hang')
  })

  it("lists its own server's resources and templates as MCP list results, unrecorded", async () => {
    const tab = await openTab(daemon)
    const appId = await tab.open(await appCall(daemon))
    const listed = await tab.ask(appId, 'resources/list', {})
    const uris = (listed as { result: { resources: { uri: string }[] } }).result.resources.map(
      (resource) => resource.uri,
    )
    expect(uris).toEqual(expect.arrayContaining(['fixture://readme', 'fixture://host/own']))
    expect(uris).toContain('ui://fixture/show')
    const templates = await tab.ask(appId, 'resources/templates/list', {})
    expect(templates).toMatchObject({
      ok: true,
      result: { resourceTemplates: [{ uriTemplate: 'fixture://notes/{id}', name: 'notes' }] },
    })
    expect(refusal(await tab.ask(appId, 'resources/list', { cursor: 'page-2' })).code).toBe(
      'bad_request',
    )
  })

  it('records its messages, model context, log lines, links and downloads, and lists the latest context per App', async () => {
    const tab = await openTab(daemon)
    const quiet = await appCall(daemon, 'quiet')
    const parent = await appCall(daemon, 'talks')
    const appId = await tab.open(parent)
    const text = (value: string) => [{ type: 'text', text: value }]
    const asks: Reply[] = [
      await tab.ask(appId, 'ui/message', { role: 'user', content: text('hello from the App') }),
      await tab.ask(appId, 'ui/update-model-context', { content: text('first') }),
      await tab.ask(appId, 'ui/update-model-context', {
        content: text('second'),
        structuredContent: { page: 2 },
      }),
      await tab.ask(appId, 'notifications/message', { level: 'info', logger: 'ui', data: 'drawn' }),
      await tab.ask(appId, 'ui/open-link', { url: 'https://example.com/a?b=c' }),
      await tab.ask(appId, 'ui/download-file', {
        files: [{ name: 'report.csv', mimeType: 'text/csv', bytes: 12 }],
      }),
    ]
    expect(asks.map((reply) => reply.ok)).toEqual([true, true, true, true, true, true])
    const client = { kind: 'webshell', label: 'App tab' }
    const of = (type: string) =>
      tab.event((e) => e.type === type && 'callId' in e && e.callId === parent, type)
    expect(await of('app.message')).toMatchObject({
      tool: 'mcp_host_app_show',
      server: 'host',
      role: 'user',
      content: text('hello from the App'),
      client,
    })
    expect(await of('app.log')).toMatchObject({ level: 'info', logger: 'ui', data: 'drawn' })
    expect(await of('app.link_opened')).toMatchObject({ url: 'https://example.com/a?b=c', client })
    expect(await of('app.download')).toMatchObject({
      files: [{ name: 'report.csv', mimeType: 'text/csv', bytes: 12 }],
    })
    const latest = tab.stream.events.filter(
      (e) => e.type === 'app.model_context' && e.callId === parent,
    )
    expect(latest).toHaveLength(2)

    const listed = await apps()
    const mine = listed.apps.filter((app) => app.callId === quiet || app.callId === parent)
    expect(mine).toEqual([
      { callId: quiet, server: 'host', resourceUri: 'ui://fixture/show', modelContext: null },
      {
        callId: parent,
        server: 'host',
        resourceUri: 'ui://fixture/show',
        modelContext: {
          seq: latest[1]?.seq,
          time: latest[1]?.time,
          content: text('second'),
          structuredContent: { page: 2 },
        },
      },
    ])
    expect((await daemon.api('/sessions/nope/apps')).status).toBe(404)
  })

  it('refuses links that are not http or https, and downloads over the byte limit', async () => {
    const tab = await openTab(daemon)
    const parent = await appCall(daemon)
    const appId = await tab.open(parent)
    for (const [url, scheme] of [
      ['javascript:alert(1)', 'javascript:'],
      ['data:text/html,<p>x</p>', 'data:'],
      ['file:///etc/passwd', 'file:'],
    ] as const) {
      expect(refusal(await tab.ask(appId, 'ui/open-link', { url }))).toEqual({
        code: 'forbidden',
        message: `an App may open only http and https links; a ${scheme} link is refused`,
      })
    }
    expect(refusal(await tab.ask(appId, 'ui/open-link', { url: 'not a url' })).code).toBe(
      'bad_request',
    )
    const big = { name: 'big.bin', mimeType: 'application/octet-stream', bytes: 6 * 1024 * 1024 }
    expect(refusal(await tab.ask(appId, 'ui/download-file', { files: [big, big] }))).toEqual({
      code: 'payload_too_large',
      message: 'a download may hold at most 10.0 MiB in all; these 2 files hold 12.0 MiB',
    })
    // The barrier: the App's last request is recorded after anything the refusals could have been.
    await tab.ask(appId, 'notifications/message', { level: 'debug', data: 'barrier' })
    await tab.event((e) => e.type === 'app.log' && e.callId === parent)
    const recorded = (await daemon.events()).filter(
      (e) => (e.type === 'app.link_opened' || e.type === 'app.download') && e.callId === parent,
    )
    expect(recorded).toEqual([])
  })

  it('refuses what an App asks past its budget with too_many_requests, and tells the session', async () => {
    const tab = await openTab(daemon)
    const parent = await appCall(daemon)
    const appId = await tab.open(parent)
    const sent = 3 * APP_REQUEST_BURST
    const replies = await Promise.all(
      Array.from({ length: sent }, (_, i) =>
        tab.ask(appId, 'notifications/message', { level: 'info', data: `line ${i}` }),
      ),
    )
    const taken = replies.filter((reply) => reply.ok).length
    const refused = replies.filter((reply) => !reply.ok).map(refusal)
    expect(taken).toBeGreaterThanOrEqual(APP_REQUEST_BURST)
    expect(refused.length).toBeGreaterThan(0)
    expect(new Set(refused.map((error) => error.code))).toEqual(new Set(['too_many_requests']))
    expect(refused[0]?.message).toBe(
      'this App asked more than Ferry takes from one App (100 at once, then 10 a second); try again in a moment',
    )
    const notice = await tab.event(
      (e) => e.type === 'notice' && e.message.includes(`the App of call ${parent} made`),
      'the notice of refused requests',
    )
    expect(notice).toMatchObject({ level: 'warning' })
    const logged = (await daemon.events()).filter(
      (e) => e.type === 'app.log' && e.callId === parent,
    )
    expect(logged).toHaveLength(taken)
    // Another App keeps its own budget.
    const other = await tab.open(await appCall(daemon))
    expect(
      await tab.ask(other, 'notifications/message', { level: 'info', data: 'x' }),
    ).toMatchObject({
      ok: true,
    })
  })
})
