import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { loadSettings } from './load-settings.js'
import type { ServerConfig, ServerEntry, Settings } from './types.js'

const dirs: string[] = []
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

async function load(
  settings: unknown,
  env: Record<string, string | undefined> = {},
): Promise<{ settings: Settings; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'ferry-config-'))
  dirs.push(dir)
  const file = join(dir, 'settings.json')
  await writeFile(file, JSON.stringify(settings, null, 2))
  return { settings: await loadSettings({ cwd: dir, configFile: file, env, homeDir: dir }), dir }
}

function entry(settings: Settings, name: string): ServerEntry {
  const found = settings.servers.find((server) => server.name === name)
  if (found === undefined) throw new Error(`no server ${name}`)
  return found
}

function enabled(settings: Settings, name: string): ServerConfig {
  const found = entry(settings, name)
  if (found.state !== 'enabled')
    throw new Error(`${name} is ${found.state}: ${JSON.stringify(found)}`)
  return found.config
}

function invalidError(settings: Settings, name: string): string {
  const found = entry(settings, name)
  if (found.state !== 'invalid') throw new Error(`${name} is ${found.state}`)
  return found.error
}

describe('server entries', () => {
  it('loads a Claude Desktop config with extra keys, warning about each unknown key', async () => {
    const { settings } = await load({
      globalShortcut: 'Ctrl+Space',
      mcpServers: {
        github: {
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-github'],
          env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'abc' },
          autoApprove: ['list_issues'],
        },
      },
    })
    expect(enabled(settings, 'github')).toMatchObject({
      transport: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github'],
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'abc' },
      timeout: 600_000,
      discoveryTimeoutMs: 30_000,
      versionNegotiation: 'legacy',
      trust: false,
    })
    expect(settings.warnings).toEqual([
      'globalShortcut: unknown key, ignored',
      'mcpServers.github.autoApprove: unknown key, ignored',
    ])
  })

  it('treats a Cursor-style type "http" as Streamable HTTP with a 5000 ms discovery default', async () => {
    const { settings } = await load({
      mcpServers: {
        remote: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { A: 'b' } },
      },
    })
    expect(enabled(settings, 'remote')).toMatchObject({
      transport: 'streamable-http',
      url: 'https://mcp.example.com/mcp',
      headers: { A: 'b' },
      discoveryTimeoutMs: 5_000,
    })
  })

  it('uses Streamable HTTP falling back to SSE for a bare url, and honours url with an explicit transport', async () => {
    const { settings } = await load({
      mcpServers: {
        legacy: { url: 'http://localhost:8080/sse' },
        modern: { url: 'http://localhost:8080/mcp', transport: 'streamable-http' },
        typed: { url: 'http://localhost:8080/sse', type: 'sse' },
      },
    })
    expect(enabled(settings, 'legacy')).toMatchObject({
      transport: 'streamable-http',
      sseFallback: true,
    })
    expect(enabled(settings, 'modern')).toMatchObject({
      transport: 'streamable-http',
      sseFallback: false,
    })
    expect(enabled(settings, 'typed')).toMatchObject({ transport: 'sse', sseFallback: false })
  })

  it('treats httpUrl as Streamable HTTP', async () => {
    const { settings } = await load({ mcpServers: { q: { httpUrl: 'https://x.example/mcp' } } })
    expect(enabled(settings, 'q')).toMatchObject({
      transport: 'streamable-http',
      url: 'https://x.example/mcp',
    })
  })

  it('marks only the server with a wrongly typed arg invalid, naming the exact path', async () => {
    const { settings } = await load({
      mcpServers: { github: { command: 'gh', args: ['a', 'b', 3] }, ok: { command: 'ok' } },
    })
    expect(invalidError(settings, 'github')).toBe('mcpServers.github.args[2]: expected string')
    expect(entry(settings, 'github')).toMatchObject({ transport: 'stdio' })
    expect(enabled(settings, 'ok')).toMatchObject({ command: 'ok' })
  })

  it('rejects a server with neither command nor url, and one with both', async () => {
    const { settings } = await load({
      mcpServers: { none: { args: [] }, both: { command: 'x', url: 'http://a' } },
    })
    expect(invalidError(settings, 'none')).toBe(
      'mcpServers.none: needs "command" (stdio) or "url" / "httpUrl" (remote)',
    )
    expect(invalidError(settings, 'both')).toBe(
      'mcpServers.both: has both "command" and "url"; set only one of them',
    )
  })

  it('rejects URLs that are not http(s) without echoing them', async () => {
    const { settings } = await load({ mcpServers: { f: { url: 'file:///etc/secret' } } })
    expect(invalidError(settings, 'f')).toBe('mcpServers.f.url: expected an http(s) URL')
  })

  it('rejects a URL with a user name or password, showing it redacted and where credentials go', async () => {
    const { settings } = await load(
      { mcpServers: { f: { httpUrl: 'https://ada:${PASS}@mcp.example.com/mcp?key=${PASS}' } } },
      { PASS: 'hunter2' },
    )
    expect(invalidError(settings, 'f')).toBe(
      'mcpServers.f.httpUrl: https://***@mcp.example.com/mcp?key=*** has a user name or password in it, which Ferry cannot send; put the credentials in "headers" instead, e.g. "Authorization": "Basic …"',
    )
  })

  it('marks a server invalid when a variable is unset, naming it but never a value', async () => {
    const env = { GITHUB_TOKEN: undefined, OTHER_SECRET: 'hunter2' }
    const { settings } = await load(
      {
        mcpServers: {
          github: { command: 'gh', env: { TOKEN: '${GITHUB_TOKEN}', O: '$OTHER_SECRET' } },
          fine: { command: 'node', args: ['$OTHER_SECRET'] },
        },
      },
      env,
    )
    const error = invalidError(settings, 'github')
    expect(error).toBe('mcpServers.github.env.TOKEN: environment variable GITHUB_TOKEN is not set')
    expect(error).not.toContain('hunter2')
    expect(enabled(settings, 'fine')).toMatchObject({ args: ['hunter2'] })
  })

  it('expands variables in every connection field, with defaults and $$ escapes', async () => {
    const env = { HOST: 'api.example.com', KEY: 's3cret', BIN: '/usr/bin/tool' }
    const { settings, dir } = await load(
      {
        mcpServers: {
          local: {
            command: '$BIN',
            args: ['--port=${PORT:-8080}', 'cost: $$5', '${HOST}'],
            env: { MODE: '${MODE:-def}' },
            cwd: '${SUBDIR:-work}',
          },
          remote: { httpUrl: 'https://${HOST}/mcp', headers: { Authorization: 'Bearer $KEY' } },
        },
      },
      env,
    )
    expect(enabled(settings, 'local')).toMatchObject({
      command: '/usr/bin/tool',
      args: ['--port=8080', 'cost: $5', 'api.example.com'],
      env: { MODE: 'def' },
      cwd: join(dir, 'work'),
    })
    expect(enabled(settings, 'remote')).toMatchObject({
      url: 'https://api.example.com/mcp',
      headers: { Authorization: 'Bearer s3cret' },
    })
  })

  it('clamps discoveryTimeoutMs to [100, 300000] with a warning', async () => {
    const { settings } = await load({
      mcpServers: {
        fast: { command: 'a', discoveryTimeoutMs: 50 },
        slow: { url: 'http://a', discoveryTimeoutMs: 10_000_000 },
        fine: { command: 'a', discoveryTimeoutMs: 2_000 },
      },
    })
    expect(enabled(settings, 'fast').discoveryTimeoutMs).toBe(100)
    expect(enabled(settings, 'slow').discoveryTimeoutMs).toBe(300_000)
    expect(enabled(settings, 'fine').discoveryTimeoutMs).toBe(2_000)
    expect(settings.warnings).toEqual([
      'mcpServers.fast.discoveryTimeoutMs: 50 is below the minimum 100, using 100',
      'mcpServers.slow.discoveryTimeoutMs: 10000000 is above the maximum 300000, using 300000',
    ])
  })

  it('defaults discovery to 30000 ms for stdio and 5000 ms for remote servers', async () => {
    const { settings } = await load({
      mcpServers: { local: { command: 'a' }, remote: { url: 'https://a.example' } },
    })
    expect(enabled(settings, 'local').discoveryTimeoutMs).toBe(30_000)
    expect(enabled(settings, 'remote').discoveryTimeoutMs).toBe(5_000)
  })

  it('reads appResourceTimeoutMs, 5000 ms by default, and refuses anything but a positive integer', async () => {
    const { settings } = await load({
      mcpServers: {
        plain: { command: 'a' },
        quick: { url: 'https://a.example', appResourceTimeoutMs: 250 },
        zero: { command: 'a', appResourceTimeoutMs: 0 },
        text: { command: 'a', appResourceTimeoutMs: '5s' },
      },
    })
    expect(enabled(settings, 'plain').appResourceTimeoutMs).toBe(5_000)
    expect(enabled(settings, 'quick').appResourceTimeoutMs).toBe(250)
    expect(invalidError(settings, 'zero')).toBe(
      'mcpServers.zero.appResourceTimeoutMs: expected a positive integer',
    )
    expect(invalidError(settings, 'text')).toMatch(/^mcpServers\.text\.appResourceTimeoutMs: /)
  })

  it('allows versionNegotiation "auto" for stdio and Streamable HTTP servers, but not for SSE', async () => {
    const { settings } = await load({
      mcpServers: {
        local: { command: 'a', versionNegotiation: 'auto' },
        remote: { url: 'https://a.example', versionNegotiation: 'auto' },
        http: { httpUrl: 'https://a.example', versionNegotiation: 'auto' },
        sse: { url: 'https://a.example', type: 'sse', versionNegotiation: 'auto' },
      },
    })
    expect(enabled(settings, 'local').versionNegotiation).toBe('auto')
    expect(enabled(settings, 'remote').versionNegotiation).toBe('auto')
    expect(enabled(settings, 'http').versionNegotiation).toBe('auto')
    expect(invalidError(settings, 'sse')).toBe(
      'mcpServers.sse.versionNegotiation: "auto" needs Streamable HTTP; an SSE server speaks only the 2025 protocol, so use "legacy" (or "url" / "httpUrl" without "type": "sse")',
    )
  })

  it('rejects a non-positive timeout and keeps tool filters as written', async () => {
    const { settings } = await load({
      mcpServers: {
        bad: { command: 'a', timeout: 0 },
        good: { command: 'a', timeout: 1_000, includeTools: ['x'], excludeTools: ['y'] },
      },
    })
    expect(invalidError(settings, 'bad')).toBe(
      'mcpServers.bad.timeout: expected a positive integer',
    )
    expect(enabled(settings, 'good')).toMatchObject({
      timeout: 1_000,
      includeTools: ['x'],
      excludeTools: ['y'],
    })
  })

  it('gives the same fingerprint for the same connection, ignoring timeout, trust and filters', async () => {
    const base = { command: 'node', args: ['server.js'], env: { A: '1' } }
    const first = await load({ mcpServers: { s: base } })
    const again = await load({ mcpServers: { s: base } })
    const tweaked = await load({
      mcpServers: {
        s: { ...base, timeout: 5, trust: true, includeTools: ['t'], excludeTools: ['u'] },
      },
    })
    const changed = await load({ mcpServers: { s: { ...base, args: ['other.js'] } } })
    const print = (settings: Settings) => {
      const found = entry(settings, 's')
      return found.state === 'enabled' ? found.fingerprint : undefined
    }
    expect(print(first.settings)).toMatch(/^[0-9a-f]{64}$/)
    expect(print(again.settings)).toBe(print(first.settings))
    expect(print(tweaked.settings)).toBe(print(first.settings))
    expect(print(changed.settings)).not.toBe(print(first.settings))
  })
})
