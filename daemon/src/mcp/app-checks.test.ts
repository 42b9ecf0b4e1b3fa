import type { Tool } from '@modelcontextprotocol/client'
import { describe, expect, it } from 'vitest'
import type { ServerConfig } from '../config/types.js'
import type { LogEntry } from '../log.js'
import { APP_CHECKS_AT_ONCE, AppChecks, namedApps, type AppRead } from './app-checks.js'

const MIME = 'text/html;profile=mcp-app'
const app = (uri: string) => ({ contents: [{ uri, mimeType: MIME, text: '<p>app</p>' }] })
const wrongType = (uri: string) => ({ contents: [{ uri, mimeType: 'text/plain', text: 'x' }] })

interface Pending {
  uri: string
  answer: (result: unknown) => void
  fail: (error: Error) => void
}

/** A read that waits to be answered, so a test decides when and how each read ends. */
function heldReads(): { read: AppRead; pending: Pending[]; started: string[] } {
  const pending: Pending[] = []
  const started: string[] = []
  const read: AppRead = (uri) =>
    new Promise((resolve, reject) => {
      started.push(uri)
      pending.push({ uri, answer: resolve, fail: reject })
    })
  return { read, pending, started }
}

function checker() {
  const logged: LogEntry[] = []
  const waiters: Array<() => void> = []
  let changes = 0
  const checks = new AppChecks({
    server: 's',
    listedMeta: () => undefined,
    timeoutMs: () => 60_000,
    log: (entry) => {
      logged.push(entry)
      waiters.splice(0).forEach((wake) => wake())
    },
    onChange: () => changes++,
  })
  /** Resolves once `count` checks have logged their verdict. */
  const settled = async (count: number) => {
    while (logged.length < count) await new Promise<void>((wake) => waiters.push(wake))
  }
  return { checks, logged, settled, changes: () => changes }
}

/** Lets queued checks start: they begin as earlier ones settle, a few microtasks later. */
const turn = () => new Promise((resolve) => setImmediate(resolve))

describe('AppChecks', () => {
  it('reads each App once, a few at a time, and keeps why each cannot be shown', async () => {
    const { checks, settled, changes } = checker()
    const { read, pending, started } = heldReads()
    const uris = ['ui://s/1', 'ui://s/2', 'ui://s/3', 'ui://s/4', 'ui://s/5', 'ui://s/6']
    checks.checkAll(uris, read)
    expect(started).toEqual(uris.slice(0, APP_CHECKS_AT_ONCE))
    expect(checks.reasonFor('ui://s/1')).toBeNull()

    pending.shift()?.answer(wrongType('ui://s/1'))
    await settled(1)
    await turn()
    expect(started).toEqual(uris.slice(0, APP_CHECKS_AT_ONCE + 1))
    expect(checks.reasonFor('ui://s/1')).toBe(
      'App not shown: resource has MIME type text/plain, expected text/html;profile=mcp-app',
    )
    expect(changes()).toBe(1)

    for (const next of pending.splice(0)) next.answer(app(next.uri))
    await settled(5)
    await turn()
    const last = pending.shift()
    expect(last?.uri).toBe('ui://s/6')
    last?.fail(new Error('store offline'))
    await settled(6)
    expect(checks.reasonFor('ui://s/6')).toBe(
      'App not shown: reading ui://s/6 failed: store offline',
    )
    expect(checks.reasonFor('ui://s/2')).toBeNull()
    // A verdict of "shown" for an App never known as broken changes nothing anyone sees.
    expect(changes()).toBe(2)
    expect(started).toHaveLength(uris.length)
  })

  it('lets a call’s own read supersede a check still running, and a reset drop every verdict', async () => {
    const { checks, logged, changes } = checker()
    const { read, pending } = heldReads()
    checks.checkAll(['ui://s/a'], read)
    checks.record('ui://s/a', { ok: false, reason: 'the server has no resource ui://s/a' })
    expect(checks.reasonFor('ui://s/a')).toBe('App not shown: the server has no resource ui://s/a')
    expect(changes()).toBe(1)
    // The older check's answer arrives after the call's and is dropped.
    pending.shift()?.answer(app('ui://s/a'))
    await turn()
    expect(logged).toEqual([])
    expect(checks.reasonFor('ui://s/a')).toBe('App not shown: the server has no resource ui://s/a')

    checks.checkAll(['ui://s/a'], read)
    checks.reset()
    expect(checks.reasonFor('ui://s/a')).toBeNull()
    pending.shift()?.answer(wrongType('ui://s/a'))
    await turn()
    expect(logged).toEqual([])
    expect(checks.reasonFor('ui://s/a')).toBeNull()
  })

  it('forgets the verdict of an App no tool names any more', async () => {
    const { checks, settled } = checker()
    const { read, pending } = heldReads()
    checks.checkAll(['ui://s/gone'], read)
    pending.shift()?.answer(wrongType('ui://s/gone'))
    await settled(1)
    expect(checks.reasonFor('ui://s/gone')).not.toBeNull()
    checks.checkAll([], read)
    expect(checks.reasonFor('ui://s/gone')).toBeNull()
  })
})

describe('namedApps', () => {
  const tool = (name: string, meta?: Record<string, unknown>): Tool =>
    ({ name, inputSchema: { type: 'object' }, ...(meta && { _meta: meta }) }) as Tool
  const config = (extra: Partial<ServerConfig> = {}) => ({ name: 's', ...extra }) as ServerConfig

  it('lists each ui:// App of the allowed tools once, through either key', () => {
    const tools = [
      tool('a', { ui: { resourceUri: 'ui://s/one' } }),
      tool('b', { 'ui/resourceUri': 'ui://s/one' }),
      tool('c', { 'ui/resourceUri': 'ui://s/two' }),
      tool('d', { ui: { resourceUri: 'https://s.example/app' } }),
      tool('e'),
      tool('f', { ui: { resourceUri: 'ui://s/excluded' } }),
    ]
    expect(namedApps(tools, config({ excludeTools: ['f'] }))).toEqual(['ui://s/one', 'ui://s/two'])
  })
})
