import type { Client } from '@modelcontextprotocol/client'
import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanup, fixture, readJsonLines, tempDir, waitFor, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'
import { gatewayToken, OpenedClients, refusalOf, type Era } from './gateway-surface-clients.js'

// Two servers that both list fixture://readme and the notes template: alpha first in settings
// order. alpha also has Apps whose ui:// resources it serves without listing them, and a tool
// that adds a tool.
let daemon: Daemon
/** What beta was asked to read, and which reads it saw cancelled. */
let betaRecord: string
const tokens: Record<'all' | 'beta' | 'alphaUnprefixed', string> = {
  all: '',
  beta: '',
  alphaUnprefixed: '',
}
const opened = new OpenedClients(() => daemon)

beforeAll(async () => {
  betaRecord = `${await tempDir()}/beta-record`
  daemon = await startInProcess({
    mcpServers: {
      alpha: fixture(['--surface-label', 'alpha', '--apps', '--unlisted-apps', '--grow']),
      beta: fixture(['--surface-label', 'beta', '--record', betaRecord]),
    },
  })
  await daemon.waitForStatus('alpha', 'ready')
  await daemon.waitForStatus('beta', 'ready')
  tokens.all = await gatewayToken(daemon, 'surface-all')
  tokens.beta = await gatewayToken(daemon, 'surface-beta', ['--servers', 'beta'])
  tokens.alphaUnprefixed = await gatewayToken(daemon, 'surface-alpha', [
    '--servers',
    'alpha',
    '--unprefixed',
  ])
  // Prompts, resources and templates fill in after ready: wait until both servers listed each.
  await waitFor(
    async () => {
      const listed = (await readJsonLines(`${daemon.stateDir}/daemon.log`)).filter(
        (line) => line.kind === 'server.listed',
      )
      return listed.length >= 6
    },
    10_000,
    "both servers' prompts, resources and templates",
  )
})

afterAll(async () => {
  await opened.closeAll()
  await cleanup()
})

function open(token: keyof typeof tokens, era: Era): Promise<Client> {
  return opened.open(tokens[token], era)
}

function texts(result: { contents: Array<Record<string, unknown>> }): unknown[] {
  return result.contents.map((content) => content.text)
}

describe.each(['legacy', 'modern'] as const)('the gateway surface (%s client)', (era) => {
  it('declares prompts and resources with list changes beside tools, and says what it is', async () => {
    const client = await open('all', era)
    expect(client.getServerCapabilities()).toMatchObject({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { listChanged: true },
    })
    const instructions = client.getInstructions() ?? ''
    expect(instructions).toMatch(/^Ferry is the person's own MCP gateway/)
    expect(instructions).toContain('waits until the person allows it in Ferry (')
  })

  it("lists every server's prompts under qualified names and gets each from its own server", async () => {
    const client = await open('all', era)
    const { prompts } = await client.listPrompts()
    expect(prompts.map((prompt) => prompt.name)).toEqual([
      'mcp_alpha_greeting',
      'mcp_beta_greeting',
    ])
    expect(prompts[1]).toMatchObject({
      description: 'Greets someone by name.',
      arguments: [{ name: 'name', description: 'Who to greet', required: false }],
    })
    const got = await client.getPrompt({ name: 'mcp_beta_greeting', arguments: { name: 'Ada' } })
    expect(got.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Hello, Ada! (beta)' } },
    ])
    const unknown = await refusalOf(client.getPrompt({ name: 'greeting' }))
    expect(unknown.code).toBe(-32602)
    expect(unknown.message).toContain(
      'no prompt named "greeting"; call prompts/list to see the prompts this client may get',
    )
  })

  it('records its prompt gets and resource reads in the transcript, as the gateway client', async () => {
    const client = await open('all', era)
    const before = (await daemon.events()).length
    await client.getPrompt({ name: 'mcp_alpha_greeting', arguments: { name: era } })
    await client.readResource({ uri: 'fixture://alpha/own' })
    const recorded = (await daemon.events()).slice(before)
    expect(recorded).toEqual([
      expect.objectContaining({
        type: 'prompt.got',
        server: 'alpha',
        prompt: 'greeting',
        arguments: { name: era },
        client: expect.objectContaining({ kind: 'mcp', label: 'surface-all (gateway)' }),
      }),
      expect.objectContaining({
        type: 'resource.read',
        server: 'alpha',
        uri: 'fixture://alpha/own',
        client: expect.objectContaining({ kind: 'mcp', label: 'surface-all (gateway)' }),
      }),
    ])
  })

  it('lists each resource URI and template once and reads it from the first server in settings order', async () => {
    const client = await open('all', era)
    const { resources } = await client.listResources()
    expect(resources.map((resource) => resource.uri)).toEqual([
      'fixture://readme',
      'fixture://alpha/own',
      'fixture://alpha/hang',
      'fixture://beta/own',
      'fixture://beta/hang',
    ])
    const { resourceTemplates } = await client.listResourceTemplates()
    expect(resourceTemplates).toEqual([
      { uriTemplate: 'fixture://notes/{id}', name: 'notes', mimeType: 'text/plain' },
    ])
    expect(texts(await client.readResource({ uri: 'fixture://readme' }))).toEqual([
      'This is the fixture server readme. (alpha)',
    ])
    expect(texts(await client.readResource({ uri: 'fixture://beta/own' }))).toEqual([
      'own resource of beta',
    ])
    expect(texts(await client.readResource({ uri: 'fixture://notes/7' }))).toEqual([
      'note 7 from alpha',
    ])
    const missing = await refusalOf(client.readResource({ uri: 'fixture://nowhere' }))
    expect(missing.code).toBe(-32602)
    expect(missing.message).toContain(
      'no resource "fixture://nowhere" is served to this client; call resources/list or resources/templates/list',
    )
  })

  it("passes tools' _meta.ui unchanged and serves their ui:// resources from the owning server", async () => {
    const client = await open('all', era)
    const { tools } = await client.listTools()
    const show = tools.find((tool) => tool.name === 'mcp_alpha_app_show')
    expect(show?._meta).toEqual({ ui: { resourceUri: 'ui://fixture/show' } })
    const flat = tools.find((tool) => tool.name === 'mcp_alpha_app_flat_key')
    expect(flat?._meta).toEqual({ [RESOURCE_URI_META_KEY]: 'ui://fixture/show' })
    // Not listed by its server: only the tool names it.
    const { resources } = await client.listResources()
    expect(resources.map((resource) => resource.uri)).not.toContain('ui://fixture/show')
    const html = await client.readResource({ uri: 'ui://fixture/show' })
    expect(html.contents).toHaveLength(1)
    expect(html.contents[0]).toMatchObject({
      uri: 'ui://fixture/show',
      mimeType: RESOURCE_MIME_TYPE,
      text: expect.stringContaining('Fixture App'),
      _meta: { ui: { prefersBorder: true, permissions: { clipboardWrite: {} } } },
    })
    // The server's own error for a resource it fails to read passes through.
    const failing = await refusalOf(client.readResource({ uri: 'ui://fixture/read-error' }))
    expect(failing.code).toBe(-32603)
    expect(failing.message).toContain('the App store is offline')
  })

  it('shows a token limited to one server only its prompts and resources', async () => {
    const client = await open('beta', era)
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual([
      'mcp_beta_greeting',
    ])
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual([
      'fixture://readme',
      'fixture://beta/own',
      'fixture://beta/hang',
    ])
    // alpha is outside the scope, so beta serves the URI both list.
    expect(texts(await client.readResource({ uri: 'fixture://readme' }))).toEqual([
      'This is the fixture server readme. (beta)',
    ])
    expect(texts(await client.readResource({ uri: 'fixture://notes/1' }))).toEqual([
      'note 1 from beta',
    ])
    for (const uri of ['fixture://alpha/own', 'ui://fixture/show']) {
      expect((await refusalOf(client.readResource({ uri }))).code).toBe(-32602)
    }
    expect((await refusalOf(client.getPrompt({ name: 'mcp_alpha_greeting' }))).code).toBe(-32602)
  })

  it('cancels a read on its server when the client gives up on it', async () => {
    const client = await open('all', era)
    const uri = 'fixture://beta/hang'
    const lines = async () =>
      (await readJsonLines(betaRecord)).filter(
        (line) => line.method === 'resources/read' && line.uri === uri,
      )
    const before = (await lines()).length
    const abort = new AbortController()
    const reading = client.readResource({ uri }, { signal: abort.signal })
    await waitFor(async () => (await lines()).length === before + 1, 10_000, 'the read upstream')
    abort.abort()
    await expect(reading).rejects.toThrow()
    const seen = await waitFor(
      async () => ((await lines()).length === before + 2 ? lines() : undefined),
      10_000,
      'the server to see the read cancelled',
    )
    expect(seen.at(-1)).toMatchObject({ uri, cancelled: true })
  })

  it("shows an unprefixed token its server's prompts under their own names", async () => {
    const client = await open('alphaUnprefixed', era)
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['greeting'])
    const got = await client.getPrompt({ name: 'greeting' })
    expect(got.messages[0]?.content).toEqual({ type: 'text', text: 'Hello, world! (alpha)' })
    expect((await refusalOf(client.getPrompt({ name: 'mcp_alpha_greeting' }))).code).toBe(-32602)
  })
})

describe('resource clashes', () => {
  it('are logged once each, naming the servers and the one that serves the URI', async () => {
    const clashes = async () =>
      (await readJsonLines(`${daemon.stateDir}/daemon.log`))
        .filter((line) => line.kind === 'gateway.resource_clash')
        .map(({ time: _time, ...entry }) => entry)
    const expected = [
      { uri: 'fixture://readme', servers: ['alpha', 'beta'], servedBy: 'alpha' },
      { uriTemplate: 'fixture://notes/{id}', servers: ['alpha', 'beta'], servedBy: 'alpha' },
    ].map((entry) => ({ kind: 'gateway.resource_clash', ...entry }))
    await waitFor(async () => (await clashes()).length >= 2, 10_000, 'the clashes to be logged')
    expect(await clashes()).toEqual(expected)
    // A later change, told to clients after the clashes were looked at again, logs nothing more.
    let grown: () => void = () => {}
    const sawSprout = new Promise<void>((resolve) => (grown = resolve))
    await opened.open(tokens.all, 'modern', {
      tools: {
        debounceMs: 0,
        onChanged: (_error, tools) => {
          if (tools?.some((tool) => tool.name === 'mcp_alpha_sprout')) grown()
        },
      },
    })
    expect((await daemon.cli(['call', 'mcp_alpha_grow', '{"name":"sprout"}'])).code).toBe(0)
    await sawSprout
    expect(await clashes()).toEqual(expected)
  })
})
