import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { StatusResponse, ToolInfo, TranscriptEvent } from '../src/protocol/index.js'
import { decodeRecord, encodeRecord } from '../src/sessions/record-codec.js'
import { cleanup, fixture, readJsonLines, tempDir, waitFor, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'

afterEach(cleanup)

const json = { 'content-type': 'application/json' }
const quick = { steps: 1, delayMs: 1 }
const untrusted = (flags: string[]) => fixture(flags, { trust: false })

/** Reads an NDJSON response until `until` shows up in it, or to its end without `until`. */
async function readUntil(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  text: string,
  until?: string,
): Promise<string> {
  while (until === undefined || !text.includes(until)) {
    const { value, done } = await reader.read()
    if (done) break
    text += new TextDecoder().decode(value)
  }
  return text
}

/** Starts an interactive NDJSON call and reads it up to its confirmation line. */
async function askFor(daemon: Daemon, tool: string, id: string) {
  const response = await daemon.api('/call', {
    method: 'POST',
    headers: { ...json, accept: 'application/x-ndjson' },
    body: JSON.stringify({ tool, arguments: quick, interactive: true, id }),
  })
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  const text = await readUntil(reader, '', '"confirmation"')
  expect(text).toContain('"confirmation"')
  return {
    answer: async (outcome: string) => {
      const answered = await daemon.api(`/calls/${id}/answer`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ outcome, client: { kind: 'attach', label: 'the person' } }),
      })
      expect(answered.status).toBe(200)
      return readUntil(reader, text)
    },
  }
}

/** Asks about a call to `tool` and answers it with `outcome`; resolves with the call's lines. */
async function allow(daemon: Daemon, tool: string, outcome: string, id: string) {
  const text = await (await askFor(daemon, tool, id)).answer(outcome)
  expect(text).toContain('"result"')
  return text
}

/** A call from a script: nobody attached can answer, so it runs only if nothing needs asking. */
function scriptCall(daemon: Daemon, tool: string) {
  return daemon.cli(['call', tool, JSON.stringify(quick)])
}

async function slowCalls(record: string): Promise<number> {
  return (await readJsonLines(record)).filter((l) => l.method === 'tools/call' && l.name === 'slow')
    .length
}

/** Why each grant ended that Ferry itself revoked (it lapsed). */
function lapses(events: TranscriptEvent[]): string[] {
  return events.flatMap((e) => (e.type === 'grant.revoked' && e.client === null ? [e.reason] : []))
}

async function listedSlow(daemon: Daemon): Promise<ToolInfo | undefined> {
  const tools = (await (await daemon.api('/tools')).json()) as ToolInfo[]
  return tools.find((tool) => tool.name === 'mcp_fx_slow')
}

/** Whether `slow` is listed with the input property `reshape` adds. */
function hasTarget(tool: ToolInfo | undefined): boolean {
  return 'target' in ((tool?.inputSchema.properties ?? {}) as object)
}

describe('"always allow" grants', () => {
  it('asks again when the command of an always-allowed server changed, and the new program gets no call until it is answered', async () => {
    const dir = await tempDir()
    const before = `${dir}/before.jsonl`
    const after = `${dir}/after.jsonl`
    const daemon = await startInProcess({ mcpServers: { fx: untrusted(['--record', before]) } })
    await daemon.waitForStatus('fx', 'ready')
    await allow(daemon, 'mcp_fx_slow', 'allow_server', 'grant-server')
    expect(await scriptCall(daemon, 'mcp_fx_slow')).toMatchObject({ code: 0, stdout: 'done\n' })

    // The same name now runs another program.
    await daemon.writeSettings({ mcpServers: { fx: untrusted(['--record', after]) } })
    expect((await daemon.cli(['reload'])).code).toBe(0)
    await daemon.waitForStatus('fx', 'ready')
    const refused = await scriptCall(daemon, 'mcp_fx_slow')
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('needs a confirmation')
    expect(await slowCalls(after)).toBe(0)
    expect(lapses(await daemon.events())).toContain(
      'the "always allow" for server "fx" lapsed: its command or connection settings changed; it is asked about again',
    )

    // Asked again, an answer lets it through.
    await allow(daemon, 'mcp_fx_slow', 'allow_once', 'asked-again')
    expect(await slowCalls(after)).toBe(1)
  })

  it('asks again when a tool allowed always changed its input schema, and again when it changed its annotations', async () => {
    const record = `${await tempDir()}/record.jsonl`
    const daemon = await startInProcess({
      mcpServers: { fx: untrusted(['--record', record, '--reshape']) },
    })
    await daemon.waitForStatus('fx', 'ready')
    const changed = {
      schema: hasTarget,
      annotations: (tool: ToolInfo | undefined) => tool?.annotations.destructiveHint === true,
    }
    for (const change of ['schema', 'annotations'] as const) {
      await allow(daemon, 'mcp_fx_slow', 'allow_tool', `grant-${change}`)
      expect(await scriptCall(daemon, 'mcp_fx_slow')).toMatchObject({ code: 0, stdout: 'done\n' })
      const reshaped = await daemon.cli([
        'call',
        '--yes',
        'mcp_fx_reshape',
        `{"change":"${change}"}`,
      ])
      expect(reshaped.code).toBe(0)
      await waitFor(async () => changed[change](await listedSlow(daemon)), 10_000, change)
      const calls = await slowCalls(record)
      const refused = await scriptCall(daemon, 'mcp_fx_slow')
      expect(refused.code).toBe(2)
      expect(refused.stderr).toContain('needs a confirmation')
      expect(await slowCalls(record)).toBe(calls)
    }
    expect(
      lapses(await daemon.events()).filter(
        (message) =>
          message ===
          'the "always allow" for tool mcp_fx_slow lapsed: the server changed its definition (input schema or annotations); it is asked about again',
      ),
    ).toHaveLength(2)
  })

  it('does not run a call whose tool changed while its confirmation was pending', async () => {
    const record = `${await tempDir()}/record.jsonl`
    const daemon = await startInProcess({
      mcpServers: { fx: untrusted(['--record', record, '--reshape']) },
    })
    await daemon.waitForStatus('fx', 'ready')
    const question = await askFor(daemon, 'mcp_fx_slow', 'pending')
    expect(
      (await daemon.cli(['call', '--yes', 'mcp_fx_reshape', '{"change":"schema"}'])).code,
    ).toBe(0)
    await waitFor(async () => hasTarget(await listedSlow(daemon)))
    const text = await question.answer('allow_once')
    expect(text).toContain('"code":"conflict"')
    expect(text).toContain('mcp_fx_slow changed while its confirmation was pending')
    expect(await slowCalls(record)).toBe(0)
  })

  it('keeps a grant across a restart while its server is unchanged, and drops one whose server changed or whose question did not record what it allowed', async () => {
    const dir = await tempDir()
    const [fxRecord, fyRecord, fyNewRecord] = ['fx', 'fy', 'fy-new'].map((n) => `${dir}/${n}.jsonl`)
    const first = await startInProcess({
      mcpServers: {
        fx: untrusted(['--record', fxRecord as string]),
        fy: untrusted(['--record', fyRecord as string]),
      },
    })
    await first.waitForStatus('fx', 'ready')
    await first.waitForStatus('fy', 'ready')
    await allow(first, 'mcp_fx_slow', 'allow_server', 'grant-fx')
    await allow(first, 'mcp_fy_slow', 'allow_tool', 'grant-fy')
    await first.stop()

    const changed = {
      mcpServers: {
        fx: untrusted(['--record', fxRecord as string]),
        fy: untrusted(['--record', fyNewRecord as string]),
      },
    }
    const second = await startInProcess(changed, { stateDir: first.stateDir })
    await second.waitForStatus('fx', 'ready')
    await second.waitForStatus('fy', 'ready')
    expect(await scriptCall(second, 'mcp_fx_slow')).toMatchObject({ code: 0, stdout: 'done\n' })
    const refused = await scriptCall(second, 'mcp_fy_slow')
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('needs a confirmation')
    expect(await slowCalls(fyNewRecord as string)).toBe(0)
    expect(lapses(await second.events())).toContain(
      'the "always allow" for tool mcp_fy_slow lapsed: its server "fy" changed its command or connection settings; it is asked about again',
    )
    const session = ((await (await second.api('/status')).json()) as StatusResponse).defaultSession
    await second.stop()

    // The same transcript as one written before questions recorded what they were about.
    const file = join(first.stateDir, 'sessions', session, 'events.jsonl')
    const lines = (await readFile(file, 'utf8')).split('\n').filter((line) => line !== '')
    const old = lines.map((line) => {
      const decoded = decodeRecord(line)
      if (!decoded.ok) throw new Error(decoded.reason)
      const {
        serverFingerprint: _s,
        toolFingerprint: _t,
        ...event
      } = decoded.value as Record<string, unknown>
      return encodeRecord(event)
    })
    await writeFile(file, old.join(''))
    const third = await startInProcess(changed, { stateDir: first.stateDir })
    await third.waitForStatus('fx', 'ready')
    const before = await slowCalls(fxRecord as string)
    expect((await scriptCall(third, 'mcp_fx_slow')).code).toBe(2)
    expect(await slowCalls(fxRecord as string)).toBe(before)
    expect(lapses(await third.events())).toContain(
      'the "always allow" for server "fx" lapsed: it was given before Ferry recorded what an "always" answer allows; it is asked about again',
    )
  })
})
