// MCP Apps on the daemon side, against real fixture servers: the client declares the extension,
// tools keep their ui:// resource whether or not the server declares it too, each named App is
// checked ahead of any call so the tool list says why it would not be shown, app-only tools stay
// out of reach, a successful call's App is read and checked into an `mcp_app` display (or the
// reason it is not shown), the model-visible result never changes, and App HTML never reaches the
// CLI, attached terminals or the log.

import { spawn, type ChildProcess } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { APP_HTML_MARKER } from '../../e2e/fixtures/app-html.js'
import { appHostServerPath } from '../../e2e/fixtures/paths.js'
import type {
  CallResponse,
  CallToolResult,
  DisplayResult,
  ServerInfo,
  ToolInfo,
  TranscriptEvent,
} from '../src/protocol/index.js'
import {
  cleanup,
  ferryBin,
  fixture,
  readJsonLines,
  tempDir,
  waitFor,
  type Daemon,
} from './harness.js'
import { startInProcess } from './in-process.js'

const UI = 'io.modelcontextprotocol/ui'
const json = { 'content-type': 'application/json' }

interface Recorded {
  method: string
  uri?: string
  name?: string
  clientCapabilities?: Record<string, unknown> | null
}

let daemon: Daemon
let records: { apps: string; modern: string; plain: string }
const attached: ChildProcess[] = []

beforeAll(async () => {
  const dir = await tempDir()
  records = {
    apps: join(dir, 'apps.jsonl'),
    modern: join(dir, 'modern.jsonl'),
    plain: join(dir, 'plain.jsonl'),
  }
  daemon = await startInProcess({
    mcpServers: {
      // The hanging resource is given up after 3 s instead of the default 5 s; the other reads, a
      // 1.3 MiB one among them, finish well within that even on a busy machine.
      apps: fixture(['--apps', '--record', records.apps], { appResourceTimeoutMs: 3000 }),
      modern: fixture(['--apps', '--era', 'modern', '--record', records.modern], {
        versionNegotiation: 'auto',
        appResourceTimeoutMs: 3000,
      }),
      // The same App tools on a server that does not declare the extension.
      plain: fixture(['--apps', '--no-ui-extension', '--record', records.plain], {
        appResourceTimeoutMs: 3000,
      }),
      // An ext-apps server that does not declare it either, with one App it does not have.
      host: { command: process.execPath, args: [appHostServerPath] },
    },
  })
  await daemon.waitForStatus('apps', 'ready')
  expect(await daemon.waitForStatus('modern', 'ready')).toMatchObject({ era: 'modern' })
  await daemon.waitForStatus('plain', 'ready')
  await daemon.waitForStatus('host', 'ready')
  // Every App named is checked once its server is ready; no test reads while a check still runs.
  for (const server of ['apps', 'modern', 'plain', 'host']) await appsChecked(server)
})

afterAll(async () => {
  for (const child of attached.splice(0)) child.kill('SIGTERM')
  await cleanup()
})

async function call(
  tool: string,
  args: Record<string, unknown> = {},
): Promise<{ id: string; result: CallToolResult; display: DisplayResult }> {
  const response = await daemon.api('/call', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ tool, arguments: args }),
  })
  expect(response.status, tool).toBe(200)
  const body = (await response.json()) as CallResponse
  const event = (await daemon.events(body.session)).find(
    (e) => e.type === 'call.result' && e.callId === body.id,
  )
  if (event?.type !== 'call.result') throw new Error(`no call.result for ${tool}`)
  expect(event.result, 'the stored result is the one the caller got').toEqual(body.result)
  return { id: body.id, result: body.result, display: event.display }
}

async function tools(server: string): Promise<ToolInfo[]> {
  return (await (await daemon.api(`/tools?server=${server}`)).json()) as ToolInfo[]
}

interface Checked {
  kind: string
  server?: string
  resourceUri?: string
  shown?: boolean
  reason?: string
}

/** The daemon log's App checks of `server`'s resources. */
async function checks(server: string): Promise<Checked[]> {
  const log = await readJsonLines<Checked>(join(daemon.stateDir, 'daemon.log'))
  return log.filter((line) => line.kind === 'server.app_checked' && line.server === server)
}

/** Waits until each App the server's tools name has been checked at least once. */
async function appsChecked(server: string): Promise<void> {
  const named = new Set((await tools(server)).flatMap((tool) => tool.uiResourceUri ?? []))
  expect(named.size, server).toBeGreaterThan(0)
  await waitFor(
    async () => {
      const done = new Set((await checks(server)).map((line) => line.resourceUri))
      return [...named].every((uri) => done.has(uri)) || undefined
    },
    20_000,
    `the App checks of ${server}`,
  )
}

const reads = async (record: string) =>
  (await readJsonLines<Recorded>(record)).filter((line) => line.method === 'resources/read')

describe('MCP Apps', () => {
  it('declares the Apps extension on every connection, in both protocol eras', async () => {
    await call('mcp_apps_app_show', { text: 'legacy' })
    await call('mcp_modern_app_show', { text: 'modern' })
    for (const record of [records.apps, records.modern]) {
      const [read] = await reads(record)
      expect(read?.clientCapabilities, record).toMatchObject({
        extensions: { [UI]: { mimeTypes: ['text/html;profile=mcp-app'] } },
      })
    }
  })

  it('says in the tool list, before any call, why a named App would not be shown', async () => {
    const listed = await daemon.cli(['tools', '--json', '--server', 'host'])
    expect(listed.code, listed.stderr).toBe(0)
    const byTool = new Map((JSON.parse(listed.stdout) as ToolInfo[]).map((t) => [t.tool, t]))
    expect(byTool.get('broken_app')).toMatchObject({
      uiResourceUri: 'ui://host/missing',
      appNotShown: 'App not shown: the server has no resource ui://host/missing',
    })
    expect(byTool.get('host_app')).toMatchObject({
      uiResourceUri: 'ui://host/app',
      appNotShown: null,
    })
    expect(byTool.get('flat_app')).toMatchObject({
      uiResourceUri: 'ui://host/app',
      appNotShown: null,
    })
    expect(byTool.get('model_only')).toMatchObject({ uiResourceUri: null, appNotShown: null })
    // Both Apps were checked (one read for the URI two tools share) and the verdicts logged.
    expect((await checks('host')).map(({ resourceUri, shown }) => [resourceUri, shown])).toEqual(
      expect.arrayContaining([
        ['ui://host/app', true],
        ['ui://host/missing', false],
      ]),
    )
    expect((await checks('host')).filter((c) => c.resourceUri === 'ui://host/app')).toHaveLength(1)

    // The same checks cover every kind of App that cannot be shown, before those tools are called.
    const apps = new Map((await tools('apps')).map((t) => [t.tool, t.appNotShown]))
    expect(apps.get('app_show')).toBeNull()
    expect(apps.get('app_wrong_mime')).toBe(
      'App not shown: resource has MIME type text/html, expected text/html;profile=mcp-app',
    )
    expect(apps.get('app_too_big')).toBe('App not shown: resource is 1.3 MiB, limit 1 MiB')
    expect(apps.get('app_bad_csp')).toMatch(/^App not shown: resource CSP is refused: /)
    expect(apps.get('app_hang')).toBe(
      'App not shown: reading ui://fixture/hang timed out after 3 s',
    )
    // A server that does not declare the extension gets the very same checks.
    const plain = new Map((await tools('plain')).map((t) => [t.tool, t.appNotShown]))
    expect(plain).toEqual(apps)

    const human = await daemon.cli(['tools', '--server', 'host'])
    const row = human.stdout.split('\n').find((line) => line.startsWith('mcp_host_broken_app '))
    expect(row).toMatch(/ read-only,app +Names an App resource the server does not have\. /)
    expect(row).toContain('(App not shown: the server has no resource ui://host/missing)')
  })

  it('checks each App again when the tools are listed again', async () => {
    const before = (await checks('host')).length
    const refreshed = await daemon.cli(['tools', '--refresh', '--server', 'host'])
    expect(refreshed.code, refreshed.stderr).toBe(0)
    const again = await waitFor(
      async () => {
        const since = (await checks('host')).slice(before)
        return new Set(since.map((line) => line.resourceUri)).size === 2 ? since : undefined
      },
      10_000,
      'the checks after the refresh',
    )
    expect(again.map(({ resourceUri, shown }) => `${resourceUri} ${shown}`).sort()).toEqual([
      'ui://host/app true',
      'ui://host/missing false',
    ])
  })

  it('keeps ui:// resources whether or not the server declares the extension and hides app-only tools', async () => {
    const apps = await tools('apps')
    const byTool = new Map(apps.map((tool) => [tool.tool, tool]))
    expect(byTool.get('app_show')?.uiResourceUri).toBe('ui://fixture/show')
    expect(byTool.get('app_flat_key')?.uiResourceUri).toBe('ui://fixture/show')
    expect(byTool.get('app_not_ui')?.uiResourceUri).toBeNull()
    expect(byTool.get('echo')?.uiResourceUri).toBeNull()
    expect(byTool.has('app_only')).toBe(false)

    const plain = await tools('plain')
    expect(plain.map((tool) => [tool.tool, tool.uiResourceUri])).toEqual(
      apps.map((tool) => [tool.tool, tool.uiResourceUri]),
    )

    const listed = await daemon.cli(['tools'])
    const [table, missing] = listed.stdout.split('Not listed above:\n')
    expect(table).toContain('mcp_apps_app_show')
    expect(table).not.toContain('app_only')
    expect(missing).toMatch(/^apps\s+app_only\s+for its MCP App only \(visibility \["app"\]\)$/m)
    const servers = (await (await daemon.api('/servers')).json()) as ServerInfo[]
    expect(servers.find((server) => server.name === 'apps')?.toolCount).toBe(apps.length)
  })

  it('refuses to call an app-only tool by name, before anything reaches the server', async () => {
    const cli = await daemon.cli(['call', 'mcp_apps_app_only', '{}'])
    expect(cli.code).toBe(2)
    expect(cli.stderr).toBe(
      'ferry: mcp_apps_app_only is for its MCP App only (visibility ["app"]); models and the CLI cannot call it\n',
    )
    const response = await daemon.api('/call', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ tool: 'mcp_apps_app_only' }),
    })
    expect(response.status).toBe(403)
    expect(await response.json()).toMatchObject({ error: { code: 'forbidden' } })
    const calls = (await readJsonLines<Recorded>(records.apps)).filter(
      (line) => line.method === 'tools/call' && line.name === 'app_only',
    )
    expect(calls).toEqual([])
  })

  it('warns once about an App resource that is not ui:// and calls that tool as a plain one', async () => {
    const warning =
      'server "apps": tool "app_not_ui" declares "https://example.com/app.html" as its App resource, which is not a ui:// URI; the tool works without its App'
    const notices = (await daemon.events()).filter(
      (e) => e.type === 'notice' && e.message === warning,
    )
    expect(notices).toHaveLength(1)
    const log = await readFile(join(daemon.stateDir, 'daemon.log'), 'utf8')
    const logged = log
      .split('\n')
      .filter((line) => line.includes('"server.tool_warning"') && line.includes('"server":"apps"'))
    expect(logged).toHaveLength(1)

    const { result, display } = await call('mcp_apps_app_not_ui', { text: 'x' })
    expect(result.content).toEqual([{ type: 'text', text: 'app_not_ui: x' }])
    expect(display).toEqual({ type: 'plain' })
  })

  it('shows a successful call of an App tool as an mcp_app display', async () => {
    const { result, display } = await call('mcp_apps_app_show', { text: 'hello' })
    expect(result).toEqual({
      content: [{ type: 'text', text: 'app_show: hello' }],
      structuredContent: { tool: 'app_show', text: 'hello' },
    })
    expect(display).toEqual({
      type: 'mcp_app',
      serverName: 'apps',
      resourceUri: 'ui://fixture/show',
      html: expect.stringContaining(APP_HTML_MARKER) as string,
      // The content's own _meta.ui, not the resources/list entry's.
      csp: {
        connectDomains: ['https://api.example.com', 'wss://live.example.com:8443'],
        resourceDomains: ['https://*.cdn.example.com'],
      },
      permissions: { clipboardWrite: {} },
      prefersBorder: true,
      toolInput: { text: 'hello' },
      toolResult: result,
      fallbackText: 'app_show: hello',
    })

    expect((await call('mcp_apps_app_flat_key', { text: 'flat' })).display).toMatchObject({
      type: 'mcp_app',
      resourceUri: 'ui://fixture/show',
      toolInput: { text: 'flat' },
    })
    expect((await call('mcp_modern_app_show', { text: 'modern' })).display).toMatchObject({
      type: 'mcp_app',
      serverName: 'modern',
      fallbackText: 'app_show: modern',
    })
  })

  it('decodes base64 HTML as UTF-8 and falls back to the listing for CSP and to a description for text', async () => {
    const { display } = await call('mcp_apps_app_blob', { text: 'b' })
    expect(display).toMatchObject({
      type: 'mcp_app',
      html: expect.stringContaining('Grüße aus der Fixture ✓') as string,
      csp: { resourceDomains: ['https://cdn.example.com'] },
      permissions: {},
      prefersBorder: null,
      fallbackText: 'app_blob on "apps" returned no text; its App shows the result',
    })
  })

  it('keeps the ordinary result and says why when the App cannot be shown', async () => {
    const cases: Array<[string, string]> = [
      [
        'app_wrong_mime',
        'App not shown: resource has MIME type text/html, expected text/html;profile=mcp-app',
      ],
      ['app_too_big', 'App not shown: resource is 1.3 MiB, limit 1 MiB'],
      [
        'app_two_contents',
        'App not shown: resource ui://fixture/two-contents has 2 content items, expected exactly 1',
      ],
      ['app_bad_utf8', 'App not shown: resource blob is not valid UTF-8'],
      [
        'app_bad_csp',
        `App not shown: resource CSP is refused: csp.connectDomains entry "https://ok.example.com; script-src *" contains whitespace, a quote, ';' or ','`,
      ],
      ['app_missing', 'App not shown: the server has no resource ui://fixture/missing'],
      [
        'app_read_error',
        'App not shown: reading ui://fixture/read-error failed: the App store is offline',
      ],
      ['app_hang', 'App not shown: reading ui://fixture/hang timed out after 3 s'],
    ]
    for (const [tool, reason] of cases) {
      const started = Date.now()
      const { result, display } = await call(`mcp_apps_${tool}`, { text: tool })
      expect(result, tool).toEqual({
        content: [{ type: 'text', text: `${tool}: ${tool}` }],
        structuredContent: { tool, text: tool },
      })
      expect(display, tool).toEqual({ type: 'plain', appNotShown: reason })
      if (tool === 'app_hang') expect(Date.now() - started).toBeLessThan(4000)
    }
    const log = await readFile(join(daemon.stateDir, 'daemon.log'), 'utf8')
    expect(log).toContain('"kind":"call.app_not_shown"')
  })

  it('does not read the App of a call that returned a tool error', async () => {
    const before = (await reads(records.apps)).length
    const { result, display } = await call('mcp_apps_app_failing', { text: 'oops' })
    expect(result).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'app_failing failed: oops' }],
    })
    expect(display).toEqual({ type: 'plain' })
    expect((await reads(records.apps)).length).toBe(before)
  })

  it('prints the same `ferry call --json` bytes whether or not the server declares the extension', async () => {
    const withApps = await daemon.cli(['call', '--json', 'mcp_apps_app_show', '{"text":"same"}'])
    const without = await daemon.cli(['call', '--json', 'mcp_plain_app_show', '{"text":"same"}'])
    expect(withApps.code).toBe(0)
    expect(withApps.stdout).toBe(without.stdout)
    expect(withApps.stdout).toBe(
      `${JSON.stringify({
        content: [{ type: 'text', text: 'app_show: same' }],
        structuredContent: { tool: 'app_show', text: 'same' },
      })}\n`,
    )
    // Without the extension the App is read and shown all the same.
    expect((await reads(records.plain)).map((line) => line.uri)).toContain('ui://fixture/show')
    const results = (await daemon.events()).filter((e) => e.type === 'call.result')
    const [declared, undeclared] = results.slice(-2)
    expect(declared).toMatchObject({ display: { type: 'mcp_app', serverName: 'apps' } })
    expect(undeclared).toMatchObject({ display: { type: 'mcp_app', serverName: 'plain' } })
  })

  it('keeps App HTML out of ferry call, ferry attach and the daemon log', async () => {
    const plain = attach(['--plain'])
    const jsonAttach = attach(['--json'])
    await waitFor(
      () =>
        (plain.stderr().includes('attached') && jsonAttach.stderr().includes('attached')) ||
        undefined,
      10_000,
      'both attaches to start',
    )
    const outputs: string[] = []
    for (const tool of ['app_show', 'app_blob', 'app_too_big', 'app_wrong_mime']) {
      for (const mode of [[], ['--json']]) {
        const run = await daemon.cli(['call', ...mode, `mcp_apps_${tool}`, '{"text":"quiet"}'])
        expect(run.code, `${tool} ${mode.join(' ')}`).toBe(0)
        outputs.push(run.stdout, run.stderr)
      }
    }
    const lastCall = (await daemon.events()).filter((e) => e.type === 'call.result').at(-1)
    await waitFor(
      () =>
        (plain
          .stdout()
          .includes(`call.result ${lastCall?.type === 'call.result' ? lastCall.callId : '?'}`) &&
          jsonAttach
            .stdout()
            .includes(`"callId":"${lastCall?.type === 'call.result' ? lastCall.callId : '?'}"`)) ||
        undefined,
      10_000,
      'the attaches to print the last result',
    )
    // The HTML is in the transcript, for the WebShell...
    expect(JSON.stringify(await daemon.events())).toContain(APP_HTML_MARKER)
    // ...and nowhere a terminal, a pipe or the log would show it.
    for (const output of [...outputs, plain.stdout(), jsonAttach.stdout()]) {
      expect(output).not.toContain(APP_HTML_MARKER)
    }
    expect(await readFile(join(daemon.stateDir, 'daemon.log'), 'utf8')).not.toContain(
      APP_HTML_MARKER,
    )
    expect(plain.stdout()).toContain('[MCP App ui://fixture/show]')
    expect(plain.stdout()).toContain('[App not shown: resource is 1.3 MiB, limit 1 MiB]')
    const printed = jsonAttach
      .stdout()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as TranscriptEvent & { display?: Record<string, unknown> })
    const app = printed.find((e) => e.type === 'call.result' && e.display?.type === 'mcp_app')
    expect(app?.display).not.toHaveProperty('html')
    expect(app?.display?.htmlBytes).toBeGreaterThan(APP_HTML_MARKER.length)
  })
})

/** `ferry attach` in a child process, collecting what it prints. */
function attach(args: string[]): { stdout: () => string; stderr: () => string } {
  const child = spawn(
    process.execPath,
    [ferryBin, '--state-dir', daemon.stateDir, 'attach', ...args],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  attached.push(child)
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return { stdout: () => stdout, stderr: () => stderr }
}
