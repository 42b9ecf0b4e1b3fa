import type { Client } from '@modelcontextprotocol/client'
import { afterEach, describe, expect, it } from 'vitest'
import type { Debounce } from '../src/gateway/list-changes.js'
import { cleanup, fixture, waitFor, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'
import { connectGateway, gatewayToken, type Era } from './gateway-surface-clients.js'

type ListKind = 'tools' | 'prompts' | 'resources'

/** One gateway client and the list-changed notifications it received, in order. */
interface Watched {
  era: Era
  client: Client
  seen: ListKind[]
  /** Resolves at the next notification of `kind`. */
  next(kind: ListKind): Promise<void>
}

const opened: Client[] = []

afterEach(async () => {
  await Promise.all(opened.splice(0).map((client) => client.close().catch(() => {})))
  await cleanup()
})

async function watch(daemon: Daemon, token: string, era: Era): Promise<Watched> {
  const seen: ListKind[] = []
  const waiters: Array<{ kind: ListKind; resolve: () => void }> = []
  const handler = (kind: ListKind) => ({
    // Told at once and not re-listed by the SDK, so the order of arrival is what the stream had.
    autoRefresh: false,
    debounceMs: 0,
    onChanged: () => {
      seen.push(kind)
      for (const waiter of waiters.splice(0)) {
        if (waiter.kind === kind) waiter.resolve()
        else waiters.push(waiter)
      }
    },
  })
  const { client, streamOpen } = await connectGateway(daemon, token, era, {
    tools: handler('tools'),
    prompts: handler('prompts'),
    resources: handler('resources'),
  })
  opened.push(client)
  if (era === 'legacy') {
    // Notifications reach a legacy client on its GET stream only: wait until it is open.
    await streamOpen
  } else {
    // The SDK opened subscriptions/listen during connect, for every list Ferry declares.
    expect(client.autoOpenedSubscription?.honoredFilter).toEqual({
      toolsListChanged: true,
      promptsListChanged: true,
      resourcesListChanged: true,
    })
  }
  return {
    era,
    client,
    seen,
    next: (kind) => new Promise((resolve) => waiters.push({ kind, resolve })),
  }
}

/** Waits for notifications of `kind` until re-listing after one shows what `check` wants. */
async function relistUntil(
  watched: Watched,
  kind: ListKind,
  check: () => Promise<boolean>,
): Promise<void> {
  for (;;) {
    await watched.next(kind)
    if (await check()) return
  }
}

async function bothEras(daemon: Daemon): Promise<Watched[]> {
  const token = await gatewayToken(daemon, 'watcher')
  return Promise.all([watch(daemon, token, 'legacy'), watch(daemon, token, 'modern')])
}

const names = (items: Array<{ name: string }>) => items.map((item) => item.name)

/** A debounce that settles only when the test releases it. */
function heldDebounce(): { debounce: Debounce; release(): void } {
  const pending = new Set<() => void>()
  return {
    debounce: (settle) => {
      pending.add(settle)
      return () => pending.delete(settle)
    },
    release: () => {
      const settles = [...pending]
      pending.clear()
      for (const settle of settles) settle()
    },
  }
}

describe('gateway list_changed', () => {
  it('reaches a legacy and a modern client after `ferry reload` adds a server, and both re-list to see it', async () => {
    const settings = { mcpServers: { alpha: fixture(['--surface-label', 'alpha']) } }
    const daemon = await startInProcess(settings)
    await daemon.waitForStatus('alpha', 'ready')
    const clients = await bothEras(daemon)
    for (const { client } of clients) {
      expect(names((await client.listTools()).tools)).not.toContain('mcp_beta_echo')
    }
    // Each client's waits start before the reload, so no notification can slip past them.
    const relisted = clients.flatMap((watched) => [
      relistUntil(watched, 'tools', async () =>
        names((await watched.client.listTools()).tools).includes('mcp_beta_echo'),
      ),
      relistUntil(watched, 'prompts', async () =>
        names((await watched.client.listPrompts()).prompts).includes('mcp_beta_greeting'),
      ),
      relistUntil(watched, 'resources', async () =>
        (await watched.client.listResources()).resources.some(
          (resource) => resource.uri === 'fixture://beta/own',
        ),
      ),
    ])
    await daemon.writeSettings({
      mcpServers: { ...settings.mcpServers, beta: fixture(['--surface-label', 'beta']) },
    })
    const reload = await daemon.cli(['reload'])
    expect(reload.code).toBe(0)
    await Promise.all(relisted)
    for (const { client } of clients) {
      const called = await client.callTool({ name: 'mcp_beta_echo', arguments: { text: 'new' } })
      expect(called.content).toEqual([{ type: 'text', text: 'new' }])
    }
  })

  it("passes a server's own prompts/list_changed on, from a legacy and a modern upstream", async () => {
    const daemon = await startInProcess({
      mcpServers: {
        old: fixture(['--surface-label', 'old', '--era', 'legacy']),
        new: fixture(['--surface-label', 'new', '--era', 'modern'], {
          versionNegotiation: 'auto',
        }),
      },
    })
    await daemon.waitForStatus('old', 'ready')
    expect(await daemon.waitForStatus('new', 'ready')).toMatchObject({ era: 'modern' })
    const clients = await bothEras(daemon)
    for (const server of ['old', 'new']) {
      const prompt = `mcp_${server}_fresh`
      const relisted = clients.map((watched) =>
        relistUntil(watched, 'prompts', async () =>
          names((await watched.client.listPrompts()).prompts).includes(prompt),
        ),
      )
      const added = await daemon.cli(['call', `mcp_${server}_add_prompt`, '{"name":"fresh"}'])
      expect(added.stdout).toBe('added prompt fresh\n')
      await Promise.all(relisted)
      for (const { client } of clients) {
        const got = await client.getPrompt({ name: prompt })
        expect(got.messages[0]?.content).toEqual({ type: 'text', text: `fresh of ${server}` })
      }
    }
  })

  it('tells clients only about the list that changed', async () => {
    const held = heldDebounce()
    const daemon = await startInProcess(
      { mcpServers: { alpha: fixture(['--surface-label', 'alpha', '--grow']) } },
      { listChangeDebounce: held.debounce },
    )
    await daemon.waitForStatus('alpha', 'ready')
    const clients = await bothEras(daemon)
    const { client } = clients[0]!
    // Each change is told when the test releases it, once the catalog shows it: a release tells
    // that change and anything still untold, and a notification arrives after every one before it.
    const tell = async (kind: ListKind, shown: () => Promise<boolean>) => {
      await waitFor(shown, 15_000, `the catalog to show the ${kind} change`)
      const told = clients.map((watched) => watched.next(kind))
      held.release()
      await Promise.all(told)
    }
    const grow = async (name: string) => {
      expect((await daemon.cli(['call', 'mcp_alpha_grow', JSON.stringify({ name })])).code).toBe(0)
      await tell('tools', async () =>
        names((await client.listTools()).tools).includes(`mcp_alpha_${name}`),
      )
    }
    // The server's first listings are in before the first release, which tells them with sprout1;
    // sprout2's notification comes after all of that.
    await waitFor(async () => {
      const { resources } = await client.listResources()
      const { resourceTemplates } = await client.listResourceTemplates()
      return (
        resources.some((resource) => resource.uri === 'fixture://alpha/own') &&
        resourceTemplates.length > 0
      )
    })
    await grow('sprout1')
    await grow('sprout2')
    for (const { seen } of clients) seen.length = 0
    expect((await daemon.cli(['call', 'mcp_alpha_add_prompt', '{"name":"fresh"}'])).code).toBe(0)
    await tell('prompts', async () =>
      names((await client.listPrompts()).prompts).includes('mcp_alpha_fresh'),
    )
    // A tools change next: its notification comes after anything the prompt change sent.
    await grow('sprout3')
    for (const { seen } of clients) expect(seen).toEqual(['prompts', 'tools'])
  })
})
