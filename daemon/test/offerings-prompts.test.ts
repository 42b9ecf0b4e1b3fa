import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PromptGetResponse, PromptInfo, TranscriptEvent } from '../src/protocol/index.js'
import { cleanup, type Daemon } from './harness.js'
import { post, promptsOf, startOfferingsDaemon } from './offerings-rig.js'

let daemon: Daemon

beforeAll(async () => {
  daemon = await startOfferingsDaemon()
  const eras = Object.fromEntries(
    (await daemon.servers()).map((server) => [server.name, server.era]),
  )
  expect(eras).toEqual({ everything: 'legacy', modern: 'modern', legacy: 'legacy' })
})

afterAll(cleanup)

function lastOf(events: TranscriptEvent[], type: TranscriptEvent['type']): TranscriptEvent {
  const found = events.filter((event) => event.type === type).at(-1)
  if (found === undefined) throw new Error(`no ${type} event`)
  return found
}

describe('prompts', () => {
  it('lists every prompt of three pages under qualified names, in both eras', async () => {
    for (const era of ['modern', 'legacy']) {
      const prompts = await promptsOf(daemon, era)
      const names = prompts.map((prompt) => prompt.name)
      expect(names).toHaveLength(8)
      expect(names).toContain(`mcp_${era}_greet`)
      // The last page's items are there: the walk followed the cursor to the end.
      expect(names).toContain(`mcp_${era}_filler_prompt_5`)
      expect(prompts.find((prompt) => prompt.prompt === 'greet')).toEqual<PromptInfo>({
        name: `mcp_${era}_greet`,
        server: era,
        prompt: 'greet',
        title: null,
        description: 'Greets someone in a language.',
        arguments: [
          { name: 'lang', description: 'Language code', required: true },
          { name: 'who', description: 'Who to greet', required: true },
        ],
      })
    }
  })

  it("lists server-everything's four prompts, and all servers' without a filter", async () => {
    const names = (await promptsOf(daemon, 'everything')).map((prompt) => prompt.name).sort()
    expect(names).toEqual([
      'mcp_everything_args-prompt',
      'mcp_everything_completable-prompt',
      'mcp_everything_resource-prompt',
      'mcp_everything_simple-prompt',
    ])
    expect(await promptsOf(daemon)).toHaveLength(4 + 8 + 8)
  })

  it('gets a prompt with arguments in both eras and records prompt.got with the result', async () => {
    for (const era of ['modern', 'legacy']) {
      const response = await post(daemon, '/prompts/get', {
        name: `mcp_${era}_greet`,
        arguments: { lang: 'eo', who: 'Ada' },
      })
      expect(response.status).toBe(200)
      const got = (await response.json()) as PromptGetResponse
      expect(got.result.messages).toEqual([
        { role: 'user', content: { type: 'text', text: '[eo] hello Ada' } },
        { role: 'assistant', content: { type: 'text', text: `(${era}) greeted Ada` } },
      ])
      expect(lastOf(await daemon.events(), 'prompt.got')).toMatchObject({
        server: era,
        prompt: 'greet',
        arguments: { lang: 'eo', who: 'Ada' },
        result: { kept: true, body: { messages: got.result.messages } },
        client: { kind: 'api' },
      })
    }
  })

  it("gets server-everything's args-prompt", async () => {
    const response = await post(daemon, '/prompts/get', {
      name: 'mcp_everything_args-prompt',
      arguments: { city: 'Paris' },
    })
    const got = (await response.json()) as PromptGetResponse
    expect(got.result.messages[0]?.content).toEqual({
      type: 'text',
      text: "What's weather in Paris?",
    })
  })

  it('refuses a get that leaves out a required argument, naming it, before the server is asked', async () => {
    const before = (await daemon.events()).length
    const response = await post(daemon, '/prompts/get', {
      name: 'mcp_modern_greet',
      arguments: { lang: 'eo' },
    })
    expect(response.status).toBe(400)
    const body = (await response.json()) as { error: { code: string; message: string } }
    expect(body.error.code).toBe('bad_request')
    expect(body.error.message).toBe(
      'mcp_modern_greet needs the argument "who"; it takes lang (required), who (required)',
    )
    const unknown = await post(daemon, '/prompts/get', {
      name: 'mcp_modern_greet',
      arguments: { lang: 'eo', who: 'Ada', mood: 'glad' },
    })
    expect(unknown.status).toBe(400)
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toBe(
      'mcp_modern_greet takes no argument "mood"; it takes lang (required), who (required)',
    )
    // Refused before the server: nothing recorded.
    expect((await daemon.events()).length).toBe(before)
  })

  it('records a body over 64 KB by its size only', async () => {
    const response = await post(daemon, '/prompts/get', { name: 'mcp_legacy_long' })
    expect(response.status).toBe(200)
    const got = (await response.json()) as PromptGetResponse
    expect(JSON.stringify(got.result).length).toBeGreaterThan(100_000)
    const event = lastOf(await daemon.events(), 'prompt.got')
    expect(event).toMatchObject({ prompt: 'long', result: { kept: false } })
    const bytes = (event as { result: { bytes: number } }).result.bytes
    expect(bytes).toBe(Buffer.byteLength(JSON.stringify(got.result)))
  })

  it('answers an unknown prompt name with not_found and the command that lists them', async () => {
    const server = await daemon.api('/prompts?server=nope')
    expect(server.status).toBe(404)
    expect(await server.json()).toEqual({
      error: { code: 'not_found', message: 'no server named "nope"' },
    })
    const response = await post(daemon, '/prompts/get', { name: 'mcp_modern_nope' })
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({
      error: {
        code: 'not_found',
        message:
          'no prompt named "mcp_modern_nope"; run `ferry prompts` to see the qualified names',
      },
    })
  })

  it('ferry prompts prints a table, --server filters it, and --json prints the rows', async () => {
    const table = await daemon.cli(['prompts', '--server', 'modern'])
    expect(table.code).toBe(0)
    const lines = table.stdout.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^NAME\s+SERVER\s+ARGUMENTS\s+DESCRIPTION$/)
    expect(lines).toContainEqual(
      expect.stringMatching(/^mcp_modern_greet\s+modern\s+lang\*,who\*\s+Greets someone/),
    )
    expect(lines.at(-1)).toBe('* required')
    expect(lines).toHaveLength(1 + 8 + 1)
    const json = await daemon.cli(['prompts', '--json'])
    expect((JSON.parse(json.stdout) as PromptInfo[]).length).toBe(20)
  })

  it('ferry prompt prints the messages, and --json the result as the server sent it', async () => {
    const text = await daemon.cli(['prompt', 'mcp_legacy_greet', '{"lang":"fr","who":"Blaise"}'])
    expect(text).toMatchObject({ code: 0, stderr: '' })
    expect(text.stdout).toBe(
      '# A greeting in fr\n\n[user]\n[fr] hello Blaise\n\n[assistant]\n(legacy) greeted Blaise\n',
    )
    const json = await daemon.cli([
      'prompt',
      'mcp_modern_greet',
      '{"lang":"en","who":"Al"}',
      '--json',
    ])
    expect(JSON.parse(json.stdout)).toMatchObject({ description: 'A greeting in en' })
    expect(lastOf(await daemon.events(), 'prompt.got').client).toMatchObject({
      kind: 'cli',
      label: expect.stringMatching(/^ferry prompt \(pid \d+\)$/),
    })
  })

  it('ferry prompt names a missing argument and exits 2', async () => {
    const missing = await daemon.cli(['prompt', 'mcp_everything_args-prompt'])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toBe(
      'ferry: mcp_everything_args-prompt needs the argument "city"; it takes city (required), state\n',
    )
    const bad = await daemon.cli(['prompt', 'mcp_modern_greet', '{"lang":["e"]}'])
    expect(bad).toMatchObject({
      code: 2,
      stderr: 'ferry: prompt arguments are text; "lang" is an array\n',
    })
  })
})
