import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { loadSettings } from './load-settings.js'
import type { ServerEntry, Settings } from './types.js'

const hostConfigs = fileURLToPath(new URL('../../../e2e/fixtures/host-configs/', import.meta.url))

const dirs: string[] = []
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

/** Loads a host's file, copied to `<project>/<as>`, as an explicit settings file from `<project>`. */
async function loadHostFile(
  fixture: string,
  as: string,
  env: Record<string, string> = {},
  extra: Record<string, string> = {},
): Promise<{ settings: Settings; project: string }> {
  const project = await mkdtemp(join(tmpdir(), 'ferry-host-'))
  dirs.push(project)
  const file = join(project, as)
  await mkdir(join(file, '..'), { recursive: true })
  await copyFile(join(hostConfigs, fixture), file)
  for (const [name, text] of Object.entries(extra)) await writeFile(join(project, name), text)
  const settings = await loadSettings({ cwd: project, configFile: file, env, homeDir: '/home/me' })
  return { settings, project }
}

function byName(settings: Settings): Record<string, ServerEntry> {
  return Object.fromEntries(settings.servers.map((server) => [server.name, server]))
}

describe('other hosts’ config files', () => {
  it('reads a Claude Desktop file, warning about its own keys', async () => {
    const { settings } = await loadHostFile('claude_desktop_config.json', 'claude.json')
    expect(settings.servers.map((s) => [s.name, s.state])).toEqual([
      ['filesystem', 'enabled'],
      ['github', 'enabled'],
    ])
    expect(settings.warnings).toEqual(['globalShortcut: unknown key, ignored'])
    expect(settings.filesWithoutServers).toEqual([])
  })

  it('reads a Claude Code .mcp.json with type stdio / http / sse and ${VAR:-default}', async () => {
    const { settings } = await loadHostFile('claude-code.mcp.json', '.mcp.json', { API_KEY: 'k' })
    const servers = byName(settings)
    expect(servers['shared-server']).toMatchObject({ config: { transport: 'stdio' } })
    expect(servers['api-server']).toMatchObject({
      config: {
        transport: 'streamable-http',
        sseFallback: false,
        url: 'https://api.example.com/mcp',
        headers: { Authorization: 'Bearer k' },
      },
    })
    expect(servers.events).toMatchObject({ config: { transport: 'sse' } })
  })

  it('reads Gemini CLI and Qwen Code files with httpUrl, url, cwd, trust and tool filters', async () => {
    const gemini = byName(
      (
        await loadHostFile('gemini-settings.json', 'settings.json', {
          DB_CONNECTION_STRING: 'db',
          EXTERNAL_API_KEY: 'ext',
        })
      ).settings,
    )
    expect(gemini.pythonTools).toMatchObject({
      config: { transport: 'stdio', env: { DATABASE_URL: 'db', API_KEY: 'ext' }, timeout: 15000 },
    })
    expect(gemini.httpServer).toMatchObject({
      config: { transport: 'streamable-http', sseFallback: false },
    })
    // Gemini CLI reads a bare `url` as SSE; Streamable HTTP with the SSE fallback reaches it too.
    expect(gemini.sseServer).toMatchObject({
      config: { transport: 'streamable-http', sseFallback: true },
    })
    expect(gemini.filteredServer).toMatchObject({
      config: { trust: true, includeTools: ['safe_tool', 'file_reader'] },
    })
    const qwen = await loadHostFile('qwen-settings.json', 'settings.json')
    expect(qwen.settings.servers.map((s) => [s.name, s.state])).toEqual([
      ['myLocalServer', 'enabled'],
      ['httpServerWithAuth', 'enabled'],
      ['sseServer', 'enabled'],
    ])
    expect(qwen.settings.servers[0]).toMatchObject({
      config: { cwd: join(qwen.project, 'mcp-servers', 'python') },
    })
  })

  it('reads a Cursor .cursor/mcp.json: a bare url falls back to SSE, ${env:}, ${workspaceFolder} and envFile work', async () => {
    const { settings, project } = await loadHostFile(
      'cursor.mcp.json',
      '.cursor/mcp.json',
      { API_KEY: 'from-env' },
      { '.env': 'FROM_FILE=1\nAPI_KEY=from-file\n' },
    )
    const servers = byName(settings)
    expect(servers.remote).toMatchObject({
      config: { transport: 'streamable-http', sseFallback: true, url: 'http://localhost:3000/mcp' },
    })
    expect(servers['local-server']).toMatchObject({
      config: {
        args: [join(project, 'tools', 'mcp_server.py')],
        // The explicit env wins over the envFile.
        env: { FROM_FILE: '1', API_KEY: 'from-env' },
      },
    })
    expect(settings.warnings).toEqual([])
  })

  it('marks a Cursor server invalid when its envFile is missing, naming the file', async () => {
    const { settings, project } = await loadHostFile('cursor.mcp.json', '.cursor/mcp.json', {
      API_KEY: 'x',
    })
    const local = byName(settings)['local-server']
    expect(local).toMatchObject({ state: 'invalid' })
    expect(local?.state === 'invalid' && local.error).toBe(
      `mcpServers.local-server.envFile: cannot read ${join(project, '.env')}: no such file`,
    )
  })

  it('reads a VS Code .vscode/mcp.json: servers, type and envFile; an unanswered ${input:} says how to answer it', async () => {
    const { settings } = await loadHostFile(
      'vscode.mcp.json',
      '.vscode/mcp.json',
      {},
      {
        '.env': 'TOKEN=t',
      },
    )
    const servers = byName(settings)
    expect(settings.servers.map((s) => [s.name, s.state])).toEqual([
      ['Perplexity', 'invalid'],
      ['Fetch', 'enabled'],
      ['github', 'enabled'],
      ['legacy', 'enabled'],
    ])
    expect(servers.Perplexity).toMatchObject({
      error:
        'mcpServers.Perplexity.env.PERPLEXITY_API_KEY: ${input:perplexity-key} ("Perplexity API Key") ' +
        "has no answer; give it with `ferry config input perplexity-key` (kept in Ferry's own " +
        'inputs.json), or in your Ferry settings with "inputs": { "perplexity-key": "…" }',
    })
    expect(servers.Fetch).toMatchObject({ config: { env: { TOKEN: 't' } } })
    expect(servers.github).toMatchObject({
      config: { transport: 'streamable-http', sseFallback: false },
    })
    expect(servers.legacy).toMatchObject({ config: { transport: 'sse' } })
    expect(settings.warnings).toEqual([])
  })

  it('expands ${input:id} from an inputs answer in Ferry settings, itself expanded', async () => {
    const project = await mkdtemp(join(tmpdir(), 'ferry-host-'))
    dirs.push(project)
    const file = join(project, 'settings.json')
    await writeFile(
      file,
      JSON.stringify({
        inputs: { 'perplexity-key': '${PPLX_TOKEN}' },
        mcpServers: {
          p: { command: 'npx', env: { PERPLEXITY_API_KEY: '${input:perplexity-key}' } },
        },
      }),
    )
    const settings = await loadSettings({
      cwd: project,
      configFile: file,
      env: { PPLX_TOKEN: 'secret' },
      homeDir: project,
    })
    expect(settings.servers[0]).toMatchObject({ config: { env: { PERPLEXITY_API_KEY: 'secret' } } })
  })

  it('marks a server invalid for a placeholder it does not understand, never passing it on', async () => {
    const { settings } = await loadHostFile('vscode-fixtures.mcp.json', 'mcp.json', {
      FIXTURE_NODE: 'node',
      FIXTURE_STDIO_SERVER: 's.js',
    })
    expect(byName(settings)['picks-file']).toMatchObject({
      state: 'invalid',
      error: expect.stringMatching(
        /^mcpServers\.picks-file\.args\[2\]: placeholder \$\{command:pickFile\} is not supported;/,
      ),
    })
  })

  it('names a file from which no server could be read', async () => {
    const { settings, project } = await loadHostFile('cursor.mcp.json', 'wrong.json')
    expect(settings.filesWithoutServers).toEqual([])
    const file = join(project, 'typo.json')
    await writeFile(file, JSON.stringify({ mcp_servers: { a: { command: 'a' } } }))
    const typo = await loadSettings({ cwd: project, configFile: file, env: {}, homeDir: project })
    expect(typo.filesWithoutServers).toEqual([
      { file, reason: 'it has no "mcpServers" (or VS Code "servers") object' },
    ])
    const broken = join(project, 'broken.json')
    await writeFile(broken, JSON.stringify({ servers: { a: { args: ['x'] } } }))
    const allInvalid = await loadSettings({
      cwd: project,
      configFile: broken,
      env: {},
      homeDir: '/',
    })
    expect(allInvalid.filesWithoutServers).toEqual([
      { file: broken, reason: 'every server in it is invalid (1)' },
    ])
  })
})
