import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SessionInfo, TranscriptEvent } from '../src/protocol/index.js'
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
import { everything, offeringsFixture, post, waitForOfferings } from './offerings-rig.js'

let daemon: Daemon
let records: string
let modernRecords: string

beforeAll(async () => {
  records = join(await tempDir(), 'legacy.jsonl')
  modernRecords = join(await tempDir(), 'modern.jsonl')
  daemon = await startInProcess({
    mcpServers: {
      everything: everything(),
      modern: offeringsFixture('modern', ['--record', modernRecords]),
      legacy: offeringsFixture('legacy', ['--record', records]),
      plain: fixture(['--era', 'legacy']),
    },
  })
  await Promise.all([
    waitForOfferings(daemon, 'everything', { prompts: 4, resources: 7, templates: 2 }),
    waitForOfferings(daemon, 'modern', { prompts: 4, resources: 7, templates: 3 }),
    waitForOfferings(daemon, 'legacy', { prompts: 4, resources: 7, templates: 3 }),
    daemon.waitForStatus('plain', 'ready'),
  ])
})

afterAll(cleanup)

async function subscribe(server: string, uri: string, session?: string): Promise<Response> {
  return post(daemon, '/resources/subscribe', { server, uri, ...(session ? { session } : {}) })
}

async function unsubscribe(server: string, uri: string, session?: string): Promise<Response> {
  return post(daemon, '/resources/unsubscribe', { server, uri, ...(session ? { session } : {}) })
}

async function touch(server: string, uri: string): Promise<void> {
  const call = await daemon.cli(['call', `mcp_${server}_touch`, JSON.stringify({ uri })])
  expect(call.stdout).toBe(`touched ${uri}\n`)
}

function updates(events: TranscriptEvent[], server: string, after = 0): string[] {
  return events
    .filter((e) => e.seq > after && e.type === 'resource.updated' && e.server === server)
    .map((e) => (e as { uri: string }).uri)
}

async function headSeq(session?: string): Promise<number> {
  const events = await daemon.events(session)
  return events.at(-1)?.seq ?? 0
}

/** Waits until `session` holds `count` updates of `uri` from `server` after `after`. */
async function waitForUpdates(
  server: string,
  uri: string,
  count: number,
  after: number,
  session?: string,
): Promise<string[]> {
  return waitFor(
    async () => {
      const seen = updates(await daemon.events(session), server, after)
      return seen.filter((u) => u === uri).length >= count ? seen : undefined
    },
    10_000,
    `${count} update(s) of ${uri} from ${server}`,
  )
}

describe('resource subscriptions', () => {
  for (const era of ['modern', 'legacy'] as const) {
    it(`delivers updates of followed resources only, and stops after unsubscribe (${era})`, async () => {
      const start = await headSeq()
      expect((await subscribe(era, 'note://one')).status).toBe(200)
      expect((await subscribe(era, 'note://two')).status).toBe(200)
      await touch(era, 'note://one')
      await touch(era, 'note://two')
      await waitForUpdates(era, 'note://two', 1, start)
      await waitForUpdates(era, 'note://one', 1, start)
      const events = await daemon.events()
      expect(
        events
          .filter((e) => e.seq > start && e.type.startsWith('resource.'))
          .map((e) => e.type)
          .slice(0, 2),
      ).toEqual(['resource.subscribed', 'resource.subscribed'])

      expect((await unsubscribe(era, 'note://one')).status).toBe(200)
      const afterUnsubscribe = await headSeq()
      await touch(era, 'note://one')
      // The barrier: an update of the resource still followed, asked for after the other one.
      await touch(era, 'note://two')
      const seen = await waitForUpdates(era, 'note://two', 1, afterUnsubscribe)
      expect(seen).toEqual(['note://two'])
      expect((await unsubscribe(era, 'note://two')).status).toBe(200)
    })

    it(`keeps a subscription across a reconnect (${era})`, async () => {
      const start = await headSeq()
      await subscribe(era, 'note://one')
      expect((await daemon.cli(['reconnect', era])).code).toBe(0)
      await touch(era, 'note://one')
      await waitForUpdates(era, 'note://one', 1, start)
      await unsubscribe(era, 'note://one')
    })
  }

  it('keeps one listen stream per modern connection, opened anew with the union as subscriptions change', async () => {
    const before = (await readJsonLines(modernRecords)).length
    await subscribe('modern', 'user://ada')
    await subscribe('modern', 'user://bob')
    await unsubscribe('modern', 'user://ada')
    await unsubscribe('modern', 'user://bob')
    const wire = (
      await readJsonLines<{ method: string; notifications?: Record<string, unknown> }>(
        modernRecords,
      )
    ).slice(before)
    const listens = wire.filter((entry) => entry.method === 'subscriptions/listen')
    expect(listens.map((entry) => entry.notifications?.resourceSubscriptions ?? [])).toEqual([
      ['user://ada'],
      ['user://ada', 'user://bob'],
      ['user://bob'],
      [],
    ])
    // Every stream also carries the list changes the server declares.
    for (const entry of listens) {
      expect(entry.notifications).toMatchObject({
        toolsListChanged: true,
        promptsListChanged: true,
        resourcesListChanged: true,
      })
    }
    // Each new stream replaced the one before it: one open at a time. The old one is closed after
    // the new one opened, so its cancel reaches the server after the change was answered.
    const cancels = async () =>
      (await readJsonLines<{ method: string }>(modernRecords))
        .slice(before)
        .filter((entry) => entry.method === 'listen/cancelled').length
    await waitFor(async () => ((await cancels()) >= 4 ? true : undefined), 10_000, '4 cancels')
    expect(await cancels()).toBe(4)
  })

  it('opens the listen stream again when the server ends it, and updates keep coming', async () => {
    const start = await headSeq()
    await subscribe('modern', 'note://two')
    const before = (await readJsonLines(modernRecords)).length
    const ended = await daemon.cli(['call', 'mcp_modern_end_listens'])
    expect(ended.stdout).toBe('ended 1 listen streams\n')
    const reopened = await waitFor(
      async () =>
        (
          await readJsonLines<{ method: string; notifications?: Record<string, unknown> }>(
            modernRecords,
          )
        )
          .slice(before)
          .find((entry) => entry.method === 'subscriptions/listen'),
      10_000,
      'the listen stream to be opened again',
    )
    expect(reopened.notifications?.resourceSubscriptions).toEqual(['note://two'])
    await touch('modern', 'note://two')
    await waitForUpdates('modern', 'note://two', 1, start)
    await unsubscribe('modern', 'note://two')
  })

  it('asks a legacy server once per resource however many sessions follow it', async () => {
    const other = (await (
      await post(daemon, '/sessions', { name: 'second' })
    ).json()) as SessionInfo
    const before = (await readJsonLines(records)).length
    const startDefault = await headSeq()
    const startOther = await headSeq(other.id)
    await subscribe('legacy', 'user://alice')
    await subscribe('legacy', 'user://alice', other.id)
    await touch('legacy', 'user://alice')
    await waitForUpdates('legacy', 'user://alice', 1, startDefault)
    await waitForUpdates('legacy', 'user://alice', 1, startOther, other.id)
    await unsubscribe('legacy', 'user://alice')
    // Still followed by the other session: the server is not told to stop.
    await touch('legacy', 'user://alice')
    await waitForUpdates('legacy', 'user://alice', 2, startOther, other.id)
    await unsubscribe('legacy', 'user://alice', other.id)
    const asked = (await readJsonLines<{ method: string; uri?: string }>(records))
      .slice(before)
      .filter((entry) => entry.uri === 'user://alice')
      .map((entry) => entry.method)
    expect(asked).toEqual(['resources/subscribe', 'resources/unsubscribe'])
  })

  it("receives server-everything's updates once its simulated updates are on", async () => {
    const start = await headSeq()
    const uri = 'demo://resource/dynamic/text/1'
    expect((await subscribe('everything', uri)).status).toBe(200)
    // It sends one update at once for every subscribed URI, then one every 5 s.
    const on = await daemon.cli(['call', 'mcp_everything_toggle-subscriber-updates'])
    expect(on.stdout).toMatch(/^Started simulated resource updated notifications/)
    await waitForUpdates('everything', uri, 1, start)
    await daemon.cli(['call', 'mcp_everything_toggle-subscriber-updates'])
    await unsubscribe('everything', uri)
  })

  it('refuses a server without subscriptions, and an unsubscribe of what is not followed', async () => {
    const refused = await subscribe('plain', 'fixture://readme')
    expect(refused.status).toBe(400)
    expect(await refused.json()).toEqual({
      error: {
        code: 'bad_request',
        message:
          'server "plain" does not offer resource subscriptions (its capabilities lack resources.subscribe)',
      },
    })
    const cli = await daemon.cli(['subscribe', 'plain', 'fixture://readme'])
    expect(cli).toMatchObject({
      code: 2,
      stderr:
        'ferry: server "plain" does not offer resource subscriptions (its capabilities lack resources.subscribe)\n',
    })
    const notFollowed = await unsubscribe('modern', 'note://never')
    expect(notFollowed.status).toBe(404)
    expect(((await notFollowed.json()) as { error: { message: string } }).error.message).toMatch(
      /^session \w+ does not follow note:\/\/never of server "modern"$/,
    )
  })

  it('ferry subscribe prints each update until Ctrl-C, then unsubscribes', async () => {
    const child = spawn(
      process.execPath,
      [ferryBin, '--state-dir', daemon.stateDir, 'subscribe', 'modern', 'note://two'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    await waitFor(() => stderr.includes('Ctrl-C stops'), 10_000, 'ferry subscribe to start')
    // The stream is attached once it has replayed the session: a touch now must show.
    await touch('modern', 'note://two')
    await waitFor(() => /updated note:\/\/two\n/.test(stdout), 10_000, 'the update line')
    // One line on stderr, and no line of the stream's own, which came before the update.
    expect(stderr).toMatch(/^following note:\/\/two of modern in session \w+; Ctrl-C stops\n$/)
    // A stream opened anew may deliver an update twice (see the listen test above).
    expect(stdout).toMatch(/^(\d{4}-\d\d-\d\dT[\d:.]+Z updated note:\/\/two\n)+$/)
    child.kill('SIGINT')
    expect(await exited).toBe(0)
    const last = (await daemon.events()).filter((e) => e.type === 'resource.unsubscribed').at(-1)
    expect(last).toMatchObject({
      server: 'modern',
      uri: 'note://two',
      client: { kind: 'cli', label: expect.stringMatching(/^ferry subscribe/) },
    })
  })
})

describe('list_changed for prompts and resources', () => {
  for (const era of ['modern', 'legacy'] as const) {
    it(`relists prompts and resources when the server says they changed (${era})`, async () => {
      await daemon.cli(['call', `mcp_${era}_add_offerings`, '{"name":"fresh"}'])
      await waitFor(
        async () => {
          const prompts = (await (await daemon.api(`/prompts?server=${era}`)).json()) as {
            prompt: string
          }[]
          const resources = (await (await daemon.api(`/resources?server=${era}`)).json()) as {
            resources: { uri: string }[]
          }
          return (
            prompts.some((p) => p.prompt === 'fresh') &&
            resources.resources.some((r) => r.uri === 'added://fresh')
          )
        },
        10_000,
        'the added prompt and resource to be listed',
      )
    })
  }
})

describe('completions', () => {
  async function complete(body: unknown): Promise<{ status: number; body: unknown }> {
    const response = await post(daemon, '/completions', body)
    return { status: response.status, body: await response.json() }
  }

  for (const era of ['modern', 'legacy'] as const) {
    it(`completes a prompt argument, with context, and a template variable (${era})`, async () => {
      const lang = await complete({
        server: era,
        ref: { type: 'ref/prompt', name: 'greet' },
        argument: { name: 'lang', value: 'e' },
      })
      expect(lang).toEqual({
        status: 200,
        body: { values: ['en', 'eo', 'es'], total: 3, hasMore: false },
      })
      const who = await complete({
        server: era,
        ref: { type: 'ref/prompt', name: 'greet' },
        argument: { name: 'who', value: 'A' },
        context: { arguments: { lang: 'fr' } },
      })
      expect(who.body).toEqual({ values: ['Alice'], total: 1, hasMore: false })
      const user = await complete({
        server: era,
        ref: { type: 'ref/resource', uri: 'user://{name}' },
        argument: { name: 'name', value: 'al' },
      })
      expect(user.body).toEqual({ values: ['alice', 'albert'], total: 2, hasMore: false })
    })
  }

  it("completes server-everything's prompt argument from the context", async () => {
    const department = await complete({
      server: 'everything',
      ref: { type: 'ref/prompt', name: 'completable-prompt' },
      argument: { name: 'department', value: 'E' },
    })
    expect((department.body as { values: string[] }).values).toEqual(['Engineering'])
    const name = await complete({
      server: 'everything',
      ref: { type: 'ref/prompt', name: 'completable-prompt' },
      argument: { name: 'name', value: '' },
      context: { arguments: { department: 'Engineering' } },
    })
    expect((name.body as { values: string[] }).values).toHaveLength(3)
  })

  it('answers empty for a server that does not declare completions, and refuses a bad body', async () => {
    expect(
      await complete({
        server: 'plain',
        ref: { type: 'ref/prompt', name: 'greeting' },
        argument: { name: 'name', value: 'A' },
      }),
    ).toEqual({ status: 200, body: { values: [], total: null, hasMore: false } })
    const bad = await complete({ server: 'modern', ref: { type: 'ref/tool' }, argument: {} })
    expect(bad.status).toBe(400)
  })
})

describe('subscriptions and daemon restarts', () => {
  it('follows again after a restart what the transcript says the session followed', async () => {
    const settings = {
      mcpServers: { modern: offeringsFixture('modern'), legacy: offeringsFixture('legacy') },
    }
    const first = await startInProcess(settings)
    await first.waitForStatus('modern', 'ready', 30_000)
    await first.waitForStatus('legacy', 'ready', 30_000)
    for (const era of ['modern', 'legacy']) {
      const response = await post(first, '/resources/subscribe', { server: era, uri: 'note://one' })
      expect(response.status).toBe(200)
    }
    await first.stop()

    const second = await startInProcess(settings, { stateDir: first.stateDir })
    await second.waitForStatus('modern', 'ready', 30_000)
    await second.waitForStatus('legacy', 'ready', 30_000)
    const start = (await second.events()).at(-1)?.seq ?? 0
    for (const era of ['modern', 'legacy']) {
      await second.cli(['call', `mcp_${era}_touch`, '{"uri":"note://one"}'])
      await waitFor(
        async () =>
          (await second.events()).some(
            (e) => e.seq > start && e.type === 'resource.updated' && e.server === era,
          ),
        10_000,
        `the update from ${era} after the restart`,
      )
    }
    // Still followed: unsubscribing works without subscribing again.
    const off = await post(second, '/resources/unsubscribe', {
      server: 'legacy',
      uri: 'note://one',
    })
    expect(off.status).toBe(200)
  })
})
