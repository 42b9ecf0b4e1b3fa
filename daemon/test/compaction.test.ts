import { appendFile, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { SessionInfo, TranscriptEvent } from '../src/protocol/index.js'
import { encodeRecord } from '../src/sessions/record-codec.js'
import { cleanup, fixture, startDaemon, waitFor, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'
import { openStream } from './stream-harness.js'

afterEach(cleanup)

const json = { 'content-type': 'application/json' }

async function defaultSession(daemon: Daemon): Promise<SessionInfo> {
  return ((await (await daemon.api('/sessions')).json()) as SessionInfo[])[0] as SessionInfo
}

async function events(daemon: Daemon, id: string, after = 0) {
  return (await (await daemon.api(`/sessions/${id}/events?after=${after}&limit=10000`)).json()) as {
    compactedThrough: number
    events: TranscriptEvent[]
  }
}

describe('compaction', () => {
  it('compacts on command: progress folded, payloads shortened, resumes from inside get a snapshot', async () => {
    const daemon = await startInProcess({ mcpServers: { fx: fixture([]) } })
    await daemon.waitForStatus('fx', 'ready')
    const big = 'y'.repeat(50_000)
    await daemon.api('/call', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ tool: 'mcp_fx_echo', arguments: { text: big } }),
    })
    await daemon.api('/call', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ tool: 'mcp_fx_slow', arguments: { steps: 3, delayMs: 5 } }),
    })
    const session = await defaultSession(daemon)
    const before = (await events(daemon, session.id)).events
    expect(before.some((e) => e.type === 'call.progress')).toBe(true)

    const compacted = await daemon.cli(['sessions', 'compact', session.id])
    expect(compacted.code).toBe(0)
    const page = await events(daemon, session.id)
    expect(page.compactedThrough).toBe(before.at(-1)?.seq)
    expect(page.events.some((e) => e.type === 'call.progress')).toBe(false)
    const requested = page.events.find((e) => e.type === 'call.requested') as unknown as {
      arguments: { text: string }
    }
    expect(requested.arguments.text).toContain('[compacted: 48000 more characters]')
    const file = join(daemon.stateDir, 'sessions', session.id, 'events.jsonl')
    expect((await readFile(file)).length).toBeLessThan(20_000)

    // A client that had read up to a seq inside the compacted range gets the compacted history.
    const stream = await openStream(daemon)
    stream.send({ type: 'subscribe', afterSeq: 2 })
    const snapshot = await waitFor(() => stream.messages.find((m) => m.type === 'snapshot'))
    expect(snapshot).toMatchObject({
      type: 'snapshot',
      reason: expect.stringContaining('compacted'),
    })
    // New events continue after the snapshot.
    await daemon.api('/call', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ tool: 'mcp_fx_echo', arguments: { text: 'later' } }),
    })
    await waitFor(
      () => stream.events.some((e) => e.type === 'call.result') || undefined,
      5000,
    ).catch((e) => {
      console.log(
        JSON.stringify(
          stream.messages.map((m) =>
            m.type === 'snapshot' ? { type: m.type, n: m.events.length } : m,
          ),
        ).slice(0, 3000),
      )
      throw e
    })
    stream.ws.close()
  })

  it('keeps a stored mcp_app result as mcp_app with empty html and its fallbackText', async () => {
    const first = await startInProcess({ mcpServers: {} })
    const session = await defaultSession(first)
    await first.stop()
    const file = join(first.stateDir, 'sessions', session.id, 'events.jsonl')
    const head = (await readFile(file, 'utf8')).split('\n').filter(Boolean).length
    const time = new Date().toISOString()
    await appendFile(
      file,
      encodeRecord({
        seq: head + 1,
        time,
        client: null,
        type: 'call.requested',
        callId: 'app1',
        tool: 'mcp_s_chart',
        server: 's',
        serverTool: 'chart',
        arguments: {},
      }) +
        encodeRecord({
          seq: head + 2,
          time,
          client: null,
          type: 'call.result',
          callId: 'app1',
          result: { content: [{ type: 'text', text: 'chart' }] },
          display: {
            type: 'mcp_app',
            serverName: 's',
            resourceUri: 'ui://s/chart',
            html: '<!doctype html><p>app</p>'.repeat(1000),
            csp: {},
            permissions: {},
            prefersBorder: null,
            toolInput: {},
            toolResult: {},
            fallbackText: 'A chart',
          },
        }),
    )
    const second = await startInProcess({ mcpServers: {} }, { stateDir: first.stateDir })
    expect((await second.cli(['sessions', 'compact', session.id])).code).toBe(0)
    const result = (await events(second, session.id)).events.find((e) => e.type === 'call.result')
    expect(result).toMatchObject({
      display: { type: 'mcp_app', html: '', fallbackText: 'A chart' },
    })
  })

  it('compacts by itself once a transcript passes the configured size', async () => {
    const daemon = await startDaemon(
      { mcpServers: { fx: fixture([]) } },
      { args: ['--compact-above-mb', '1'] },
    )
    await daemon.waitForStatus('fx', 'ready')
    const big = 'z'.repeat(300_000)
    for (let i = 0; i < 5; i++) {
      await daemon.api('/call', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ tool: 'mcp_fx_echo', arguments: { text: big } }),
      })
    }
    const session = await defaultSession(daemon)
    await waitFor(
      async () => ((await defaultSession(daemon)).compactedThrough > 0 ? true : undefined),
      10_000,
      'auto compaction',
    )
    const file = join(daemon.stateDir, 'sessions', session.id, 'events.jsonl')
    expect((await readFile(file)).length).toBeLessThan(1024 * 1024)
  })
})
