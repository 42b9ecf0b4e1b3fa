// Completions through the gateway's `/mcp`: a client of either era completes a prompt's argument
// or a template's variable of the server that offers it, by the names its token shows it, and
// nothing its token does not reach.

import { INVALID_PARAMS, type Client } from '@modelcontextprotocol/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanup, fixture, readJsonLines, tempDir, waitFor, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'
import { gatewayToken, OpenedClients, refusalOf, type Era } from './gateway-surface-clients.js'
import { offeringsFixture, promptsOf } from './offerings-rig.js'

let daemon: Daemon
let record: string
const tokens = { all: '', unprefixed: '', echoOnly: '' }
const opened = new OpenedClients(() => daemon)

beforeAll(async () => {
  record = `${await tempDir()}/offerings-record`
  daemon = await startInProcess({
    mcpServers: {
      off: offeringsFixture('legacy', ['--record', record]),
      echo: fixture([]),
    },
  })
  await daemon.waitForStatus('off', 'ready')
  await daemon.waitForStatus('echo', 'ready')
  await waitFor(
    async () => (await promptsOf(daemon, 'off')).some((prompt) => prompt.prompt === 'greet'),
    10_000,
    'the prompts of off',
  )
  tokens.all = await gatewayToken(daemon, 'complete-all')
  tokens.unprefixed = await gatewayToken(daemon, 'complete-off', [
    '--servers',
    'off',
    '--unprefixed',
  ])
  tokens.echoOnly = await gatewayToken(daemon, 'complete-echo', ['--servers', 'echo'])
})

afterAll(async () => {
  await opened.closeAll()
  await cleanup()
})

function open(token: keyof typeof tokens, era: Era): Promise<Client> {
  return opened.open(tokens[token], era)
}

describe.each(['legacy', 'modern'] as const)(
  'completions through the gateway (%s client)',
  (era) => {
    it('declares completions and completes a prompt argument with the values given so far', async () => {
      const client = await open('all', era)
      expect(client.getServerCapabilities()?.completions).toEqual({})
      const langs = await client.complete({
        ref: { type: 'ref/prompt', name: 'mcp_off_greet' },
        argument: { name: 'lang', value: 'e' },
      })
      expect(langs.completion).toMatchObject({ values: ['en', 'eo', 'es'], hasMore: false })
      const people = await client.complete({
        ref: { type: 'ref/prompt', name: 'mcp_off_greet' },
        argument: { name: 'who', value: '' },
        context: { arguments: { lang: 'fr' } },
      })
      expect(people.completion.values.length).toBeGreaterThan(0)
      // The server was asked under its own prompt name, with the context the client gave.
      const asked = (await readJsonLines(record)).filter(
        (line) => line.method === 'completion/complete',
      )
      expect(asked.at(-1)).toMatchObject({
        ref: { type: 'ref/prompt', name: 'greet' },
        argument: { name: 'who', value: '' },
        context: { arguments: { lang: 'fr' } },
      })
    })

    it("completes a template's variable from the server that serves the template", async () => {
      const client = await open('all', era)
      const users = await client.complete({
        ref: { type: 'ref/resource', uri: 'user://{name}' },
        argument: { name: 'name', value: 'al' },
      })
      expect(users.completion.values).toEqual(['alice', 'albert'])
    })

    it('completes an unprefixed token’s prompt by the name it lists', async () => {
      const client = await open('unprefixed', era)
      const langs = await client.complete({
        ref: { type: 'ref/prompt', name: 'greet' },
        argument: { name: 'lang', value: 'f' },
      })
      expect(langs.completion.values).toEqual(['fr'])
    })

    it('refuses a prompt or template the token does not reach, saying where to look', async () => {
      const client = await open('echoOnly', era)
      const prompt = await refusalOf(
        client.complete({
          ref: { type: 'ref/prompt', name: 'mcp_off_greet' },
          argument: { name: 'lang', value: 'e' },
        }),
      )
      expect(prompt.code).toBe(INVALID_PARAMS)
      expect(prompt.message).toContain('call prompts/list')
      const template = await refusalOf(
        client.complete({
          ref: { type: 'ref/resource', uri: 'user://{name}' },
          argument: { name: 'name', value: 'a' },
        }),
      )
      expect(template.code).toBe(INVALID_PARAMS)
      expect(template.message).toContain('resources/templates/list')
    })
  },
)
