import { appendFile, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { isCallEnd, type SessionInfo, type TranscriptEvent } from '../src/protocol/index.js'
import {
  cleanup,
  fixture,
  readJsonLines,
  startDaemon,
  tempDir,
  type Daemon,
  waitFor,
} from './harness.js'
import { startInProcess } from './in-process.js'
import { openStream } from './stream-harness.js'

afterEach(cleanup)

const json = { 'content-type': 'application/json' }

async function sessions(daemon: Daemon): Promise<SessionInfo[]> {
  return (await (await daemon.api('/sessions')).json()) as SessionInfo[]
}

/** Every event after `after`, read a page at a time however many there are. */
async function events(daemon: Daemon, session: string, after = 0): Promise<TranscriptEvent[]> {
  const all: TranscriptEvent[] = []
  for (let from = after; ;) {
    const page = (await (
      await daemon.api(`/sessions/${session}/events?after=${from}&limit=10000`)
    ).json()) as { events: TranscriptEvent[]; headSeq: number }
    all.push(...page.events)
    const last = page.events.at(-1)?.seq
    if (last === undefined || last >= page.headSeq) return all
    from = last
  }
}

async function call(daemon: Daemon, body: Record<string, unknown>) {
  const response = await daemon.api('/call', {
    method: 'POST',
    headers: json,
    body: JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

describe('sessions and transcripts', () => {
  it('records a call in the default session: request with its client, progress, result', async () => {
    const daemon = await startInProcess({ mcpServers: { fx: fixture([]) } })
    await daemon.waitForStatus('fx', 'ready')
    const [first] = await sessions(daemon)
    expect(first).toMatchObject({ name: 'default', isDefault: true, damaged: null })
    const done = await call(daemon, {
      tool: 'mcp_fx_slow',
      arguments: { steps: 3, delayMs: 20 },
      client: { kind: 'cli', label: 'test terminal' },
    })
    expect(done.status).toBe(200)
    expect(done.body.session).toBe(first?.id)
    const log = (await events(daemon, first?.id as string)).filter((e) => 'callId' in e)
    expect(log.map((e) => e.type)).toEqual([
      'call.requested',
      ...log.filter((e) => e.type === 'call.progress').map(() => 'call.progress'),
      'call.result',
    ])
    expect(log[0]).toMatchObject({
      tool: 'mcp_fx_slow',
      server: 'fx',
      serverTool: 'slow',
      arguments: { steps: 3, delayMs: 20 },
      client: { kind: 'cli', label: 'test terminal' },
    })
    const seqs = (await events(daemon, first?.id as string)).map((e) => e.seq)
    expect(seqs).toEqual(seqs.map((_, i) => i + 1))
  })

  it('creates, renames, lists and deletes sessions from the CLI, and runs a call in a named one', async () => {
    const daemon = await startInProcess({ mcpServers: { fx: fixture([]) } })
    await daemon.waitForStatus('fx', 'ready')
    const created = await daemon.cli(['sessions', 'new', '--name', 'scratch'])
    expect(created.code).toBe(0)
    const id = created.stdout.trim().split(/\s+/)[0] as string
    const listed = JSON.parse((await daemon.cli(['sessions', '--json'])).stdout) as SessionInfo[]
    expect(listed.map((s) => s.name)).toEqual(['default', 'scratch'])
    expect(
      (await daemon.cli(['call', '--session', id, 'mcp_fx_echo', '{"text":"here"}'])).stdout,
    ).toBe('here\n')
    expect((await events(daemon, id)).some((e) => e.type === 'call.result')).toBe(true)
    const removed = await daemon.cli(['sessions', 'rm', id])
    expect(removed.code).toBe(0)
    expect((await sessions(daemon)).map((s) => s.name)).toEqual(['default'])
    expect((await daemon.cli(['sessions', 'rm', id])).code).toBe(2)
  })
})

describe('confirmations', () => {
  const settings = (record: string) => ({
    mcpServers: { fx: fixture(['--record', record], { trust: false }) },
  })

  it('fails a call that needs confirmation when nobody can answer, and --yes allows it once', async () => {
    const record = `${await tempDir()}/record.jsonl`
    const daemon = await startInProcess(settings(record))
    await daemon.waitForStatus('fx', 'ready')
    const refused = await daemon.cli(['call', 'mcp_fx_slow', '{"steps":1,"delayMs":1}'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('needs a confirmation')
    expect(refused.stderr).toContain('--yes')
    expect((await readJsonLines(record)).filter((l) => l.method === 'tools/call')).toHaveLength(0)

    const allowed = await daemon.cli(['call', '--yes', 'mcp_fx_slow', '{"steps":1,"delayMs":1}'])
    expect(allowed).toMatchObject({ code: 0, stdout: 'done\n' })
    // read-only tools never ask
    expect((await daemon.cli(['call', 'mcp_fx_echo', '{"text":"free"}'])).stdout).toBe('free\n')
  })

  it('lets the first answer win, tells a late answer who answered, and remembers "always this tool"', async () => {
    const record = `${await tempDir()}/record.jsonl`
    const daemon = await startInProcess(settings(record))
    await daemon.waitForStatus('fx', 'ready')
    const response = await daemon.api('/call', {
      method: 'POST',
      headers: { ...json, accept: 'application/x-ndjson' },
      body: JSON.stringify({
        tool: 'mcp_fx_slow',
        arguments: { steps: 1, delayMs: 1 },
        interactive: true,
        id: 'ask-1',
      }),
    })
    const reader = (response.body as ReadableStream<Uint8Array>).getReader()
    let text = ''
    while (!text.includes('"confirmation"')) {
      const { value, done } = await reader.read()
      if (done) break
      text += new TextDecoder().decode(value)
    }
    const answer = (outcome: string, label: string) =>
      daemon.api('/calls/ask-1/answer', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ outcome, client: { kind: 'attach', label } }),
      })
    expect((await answer('allow_tool', 'terminal one')).status).toBe(200)
    const late = await answer('deny', 'terminal two')
    expect(late.status).toBe(409)
    expect(((await late.json()) as { error: { message: string } }).error.message).toBe(
      'already resolved by terminal one: allow tool',
    )
    for (;;) {
      const { value, done } = await reader.read()
      if (done) break
      text += new TextDecoder().decode(value)
    }
    expect(text).toContain('"result"')
    // "Always this tool" holds for the session: the next call asks nobody, also after a restart.
    const again = await daemon.cli(['call', 'mcp_fx_slow', '{"steps":1,"delayMs":1}'])
    expect(again).toMatchObject({ code: 0, stdout: 'done\n' })
    await daemon.stop()
    const restarted = await startInProcess(settings(record), { stateDir: daemon.stateDir })
    await restarted.waitForStatus('fx', 'ready')
    const afterRestart = await restarted.cli(['call', 'mcp_fx_slow', '{"steps":1,"delayMs":1}'])
    expect(afterRestart).toMatchObject({ code: 0, stdout: 'done\n' })
  })

  it('ends a denied call with a "denied by user" tool error the server never sees', async () => {
    const record = `${await tempDir()}/record.jsonl`
    const daemon = await startInProcess(settings(record))
    await daemon.waitForStatus('fx', 'ready')
    const pending = daemon.api('/call', {
      method: 'POST',
      headers: { ...json, accept: 'application/x-ndjson' },
      body: JSON.stringify({ tool: 'mcp_fx_fail', interactive: true, id: 'ask-2' }),
    })
    const [session] = await sessions(daemon)
    let asked = false
    while (!asked) {
      asked = (await events(daemon, session?.id as string)).some(
        (e) => e.type === 'confirmation.requested',
      )
    }
    await daemon.api('/calls/ask-2/answer', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ outcome: 'deny' }),
    })
    const text = await (await pending).text()
    expect(text).toContain('"denied by user"')
    const log = await events(daemon, session?.id as string)
    expect(log.find((e) => e.type === 'call.result')).toMatchObject({
      result: { isError: true, content: [{ type: 'text', text: 'denied by user' }] },
    })
    expect((await readJsonLines(record)).filter((l) => l.method === 'tools/call')).toHaveLength(0)
  })
})

describe('durability', () => {
  it('keeps every event a client received across kill -9 during 1,000 rapid calls, marks running calls interrupted, and recovers a torn last record', async () => {
    const daemon = await startDaemon({ mcpServers: { fx: fixture([]) } })
    await daemon.waitForStatus('fx', 'ready')
    const [session] = await sessions(daemon)
    const id = session?.id as string
    const watcher = await openStream(daemon)
    watcher.send({ type: 'subscribe' })
    // 1,000 calls in waves of 50, some long enough to be running at the kill.
    let stop = false
    const calls = (async () => {
      for (let wave = 0; wave < 20 && !stop; wave++) {
        await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            call(daemon, {
              tool: 'mcp_fx_slow',
              arguments: { steps: i % 10 === 0 ? 50 : 1, delayMs: 5 },
            }).catch(() => undefined),
          ),
        )
      }
    })()
    await waitFor(() => (watcher.events.length >= 1500 ? true : undefined), 60_000, '1,500 events')
    // One call surely running at the kill: the waves alone may be between calls just then.
    const held = call(daemon, {
      tool: 'mcp_fx_slow',
      arguments: { steps: 100_000, delayMs: 5 },
      id: 'held',
    }).catch(() => undefined)
    await waitFor(
      () =>
        watcher.events.some((e) => e.type === 'call.progress' && e.callId === 'held') || undefined,
      60_000,
      'the held call to run',
    )
    daemon.process.kill('SIGKILL')
    stop = true
    await Promise.all([calls, held])
    const received = [...watcher.events]
    expect(received.map((e) => e.seq)).toEqual(received.map((_, i) => i + 1))

    const file = join(daemon.stateDir, 'sessions', id, 'events.jsonl')
    await appendFile(file, '0000abcd {"seq":99999,"ty')
    const restarted = await startDaemon(
      { mcpServers: { fx: fixture([]) } },
      { stateDir: daemon.stateDir },
    )
    const after = await events(restarted, id)
    const bySeq = new Map(after.map((e) => [e.seq, e]))
    for (const event of received) expect(bySeq.get(event.seq)).toEqual(event)
    expect(after.map((e) => e.seq)).toEqual(after.map((_, i) => i + 1))
    const open = new Set<string>()
    for (const e of after) {
      if (e.type === 'call.requested') open.add(e.callId)
      else if (isCallEnd(e)) open.delete(e.callId)
    }
    expect([...open]).toEqual([])
    expect(after.find((e) => e.type === 'call.interrupted' && e.callId === 'held')).toBeDefined()
    const log = await readJsonLines(join(daemon.stateDir, 'daemon.log'))
    expect(log.some((entry) => entry.kind === 'session.torn_record')).toBe(true)
    expect((await readFile(file, 'utf8')).endsWith('\n')).toBe(true)
  })

  it('reports a damaged record in the middle instead of skipping it silently', async () => {
    const first = await startInProcess({ mcpServers: { fx: fixture([]) } })
    await first.waitForStatus('fx', 'ready')
    await call(first, { tool: 'mcp_fx_echo', arguments: { text: 'one' } })
    const [session] = await sessions(first)
    await first.stop()
    const file = join(first.stateDir, 'sessions', session?.id as string, 'events.jsonl')
    const lines = (await readFile(file, 'utf8')).split('\n')
    lines[1] = (lines[1] as string).replace('"seq"', '"SEQ"')
    await writeFile(file, lines.join('\n'))
    const second = await startInProcess(
      { mcpServers: { fx: fixture([]) } },
      { stateDir: first.stateDir },
    )
    const [reloaded] = await sessions(second)
    expect(reloaded?.damaged).toContain(
      'record 2 of events.jsonl is unreadable (checksum mismatch)',
    )
    const listed = await second.cli(['sessions'])
    expect(listed.stdout).toContain('damaged')
    expect(await events(second, reloaded?.id as string)).toContainEqual(
      expect.objectContaining({
        type: 'notice',
        level: 'error',
        message: expect.stringContaining('this transcript is damaged'),
      }),
    )
    expect(await readdir(join(first.stateDir, 'sessions'))).toHaveLength(1)
  })
})
