import { afterEach, describe, expect, it } from 'vitest'
import type { GrantInfo, GrantsResponse, TranscriptEvent } from '../src/protocol/index.js'
import { cleanup, fixture, waitFor, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'
import { elicitingClient, type ElicitParams } from './gateway-harness.js'
import { openStream } from './stream-harness.js'
import { closeTerminal, openTerminal } from './terminal.js'

afterEach(async () => {
  await closeTerminal()
  await cleanup()
})

const json = { 'content-type': 'application/json' }
const quick = { steps: 0 }

async function token(daemon: Daemon, name: string, flags: string[] = []): Promise<string> {
  const created = await daemon.cli(['gateway', 'token', 'create', name, ...flags])
  expect(created.stderr).toContain('Gateway token')
  return created.stdout.trim()
}

const agent = elicitingClient

async function grants(daemon: Daemon): Promise<GrantInfo[]> {
  return ((await (await daemon.api('/grants')).json()) as GrantsResponse).grants
}

function ofType<T extends TranscriptEvent['type']>(events: TranscriptEvent[], type: T) {
  return events.filter((e): e is Extract<TranscriptEvent, { type: T }> => e.type === type)
}

describe("an agent's own approval", () => {
  for (const era of ['legacy', 'modern'] as const) {
    it(`covers only that agent's later calls (${era}): another agent, REST, a terminal and the WebShell still wait for a person`, async () => {
      const daemon = await startInProcess({
        mcpServers: { fx: fixture(['--era', 'dual'], { trust: false }) },
      })
      await daemon.waitForStatus('fx', 'ready')
      const careful = await token(daemon, 'careful', ['--confirm-in-client'])
      const other = await token(daemon, 'other')
      const asked: ElicitParams[] = []
      const self = await agent(daemon, careful, era, (params) => {
        asked.push(params)
        return Promise.resolve({ action: 'accept', content: { decision: 'allow_server' } })
      })
      // The form offers only what the agent can grant itself.
      const first = await self.callTool({ name: 'mcp_fx_slow', arguments: quick })
      expect(first).toMatchObject({ content: [{ type: 'text', text: 'done' }] })
      const schema = asked[0]?.requestedSchema as {
        properties: { decision: { oneOf: Array<{ const: string; title: string }> } }
      }
      expect(schema.properties.decision.oneOf.map((o) => o.title)).toEqual([
        'Allow this call once',
        "Always allow this tool for careful's calls (this session)",
        "Always allow this server for careful's calls (this session)",
        'Deny',
      ])
      // Its own next call runs unasked.
      const again = await self.callTool({ name: 'mcp_fx_slow', arguments: quick })
      expect(again).toMatchObject({ content: [{ type: 'text', text: 'done' }] })
      expect(asked).toHaveLength(1)

      // Another agent's call waits for a person, and nobody is there.
      const otherAgent = await agent(daemon, other, era)
      const refused = await otherAgent.callTool({ name: 'mcp_fx_slow', arguments: quick })
      expect(refused).toMatchObject({ isError: true })
      expect(JSON.stringify(refused)).toContain('nobody is there to give it')

      // A REST call without `yes` and a terminal's `ferry call` wait for a person too.
      const rest = await daemon.api('/call', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ tool: 'mcp_fx_slow', arguments: quick }),
      })
      expect(rest.status).toBe(409)
      expect(await rest.text()).toContain('needs a confirmation')
      const terminal = await daemon.cli(['call', 'mcp_fx_slow', '{"steps":0}'])
      expect(terminal.code).toBe(2)
      expect(terminal.stderr).toContain('needs a confirmation')

      // The grant is listed as the agent's, covering its own calls only.
      expect(await grants(daemon)).toMatchObject([
        {
          scope: 'server',
          server: 'fx',
          tool: null,
          covers: 'client',
          givenBy: { id: 'mcp:careful', kind: 'mcp', label: 'careful (gateway)' },
        },
      ])

      // A WebShell tab's call is asked about, and the tab's denial is what counts.
      const tab = await openStream(daemon)
      tab.send({ type: 'hello', client: { kind: 'webshell', label: 'the tab' } })
      await tab.subscribe()
      const seen = tab.events.length
      tab.send({ type: 'call', ref: 'c', tool: 'mcp_fx_slow', arguments: quick, id: 'from-tab' })
      await waitFor(() =>
        tab.events
          .slice(seen)
          .find((e) => e.type === 'confirmation.requested' && e.callId === 'from-tab'),
      )
      tab.send({ type: 'answer', ref: 'a', callId: 'from-tab', outcome: 'deny' })
      expect(await tab.reply('c')).toMatchObject({ ok: true, callId: 'from-tab' })

      const events = await daemon.events()
      const ran = ofType(events, 'call.result').filter(
        (e) => e.result.isError !== true && e.result.content !== undefined,
      )
      // The agent's two calls ran; nobody else's did.
      expect(
        ran.map(
          (e) => ofType(events, 'call.requested').find((r) => r.callId === e.callId)?.client?.id,
        ),
      ).toEqual(['mcp:careful', 'mcp:careful'])
      await Promise.all([self.close(), otherAgent.close()])
      tab.ws.close()
    })
  }
})

/** Starts an interactive NDJSON call of `tool` and resolves once it waits for its confirmation. */
async function pendingCall(daemon: Daemon, tool: string, id: string) {
  const response = await daemon.api('/call', {
    method: 'POST',
    headers: { ...json, accept: 'application/x-ndjson' },
    body: JSON.stringify({ tool, arguments: quick, interactive: true, id }),
  })
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  let text = ''
  while (!text.includes('"confirmation"')) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`the call ended unasked: ${text}`)
    text += new TextDecoder().decode(value)
  }
  return reader
}

/** Answers call `id`'s confirmation as the person at a terminal would. */
async function answerAs(daemon: Daemon, id: string, outcome: string, label: string) {
  const answered = await daemon.api(`/calls/${id}/answer`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ outcome, client: { kind: 'attach', label } }),
  })
  expect(answered.status).toBe(200)
}

describe('the grants in force', () => {
  it('are listed with who gave them, for what and since when, revoked with `ferry grants revoke`, recorded, and stay revoked across a restart', async () => {
    const settings = {
      mcpServers: {
        fx: fixture([], { trust: false }),
        fy: fixture([], { trust: false }),
      },
    }
    const daemon = await startInProcess(settings)
    await daemon.waitForStatus('fx', 'ready')
    await daemon.waitForStatus('fy', 'ready')
    await pendingCall(daemon, 'mcp_fx_slow', 'grant-tool')
    await answerAs(daemon, 'grant-tool', 'allow_tool', 'the person')
    await pendingCall(daemon, 'mcp_fy_slow', 'grant-server')
    await answerAs(daemon, 'grant-server', 'allow_server', 'the person')

    const listed = await daemon.cli(['grants'])
    expect(listed.code).toBe(0)
    const lines = listed.stdout.trim().split('\n')
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(
      /^grant-tool {2}always allow tool mcp_fx_slow {2}given by the person {2}for every caller in the session {2}since \d{4}-\d\d-\d\dT/,
    )
    expect(lines[1]).toContain('grant-server  always allow server "fy"  given by the person')
    const asJson = JSON.parse((await daemon.cli(['grants', '--json'])).stdout) as GrantInfo[]
    expect(asJson.map((g) => [g.id, g.scope, g.tool, g.server, g.covers])).toEqual([
      ['grant-tool', 'tool', 'mcp_fx_slow', 'fx', 'session'],
      ['grant-server', 'server', null, 'fy', 'session'],
    ])

    const unknown = await daemon.cli(['grants', 'revoke', 'nope'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('no grant nope in session')
    const revoked = await daemon.cli(['grants', 'revoke', 'grant-tool'])
    expect(revoked.code).toBe(0)
    expect(revoked.stdout).toContain('Revoked grant-tool  always allow tool mcp_fx_slow')
    const record = (await daemon.events()).filter((e) => e.type === 'grant.revoked')
    expect(record).toMatchObject([
      {
        grantId: 'grant-tool',
        scope: 'tool',
        tool: 'mcp_fx_slow',
        server: 'fx',
        reason: 'the "always allow" for tool mcp_fx_slow was revoked',
        client: { kind: 'cli', label: expect.stringMatching(/^ferry grants revoke \(pid \d+\)$/) },
      },
    ])
    // Revoked, the tool is asked about again; the server grant still holds.
    const asked = await daemon.cli(['call', 'mcp_fx_slow', '{"steps":0}'])
    expect(asked.stderr).toContain('needs a confirmation')
    expect((await daemon.cli(['call', 'mcp_fy_slow', '{"steps":0}'])).stdout).toBe('done\n')

    // After a restart the revoked grant stays revoked and the other one holds.
    await daemon.stop()
    const again = await startInProcess(settings, { stateDir: daemon.stateDir })
    await again.waitForStatus('fx', 'ready')
    await again.waitForStatus('fy', 'ready')
    expect((await grants(again)).map((g) => g.id)).toEqual(['grant-server'])
    const all = await again.cli(['grants', 'revoke', '--all'])
    expect(all.stdout).toContain('Revoked grant-server')
    expect((await again.cli(['grants'])).stdout).toMatch(/^No grants in session /)
  })
})

describe('ferry call at its terminal prompt', () => {
  it('ends its prompt as soon as someone else answers, saying who and what, and runs the call', async () => {
    const daemon = await startInProcess({ mcpServers: { fx: fixture([], { trust: false }) } })
    await daemon.waitForStatus('fx', 'ready')
    const terminal = await openTerminal(
      daemon,
      ['mcp_fx_slow', '{"steps":1,"delayMs":10}'],
      ['call'],
    )
    await terminal.waitForScreen('the question', (screen) =>
      screen.includes('Allow mcp_fx_slow on "fx"?'),
    )
    const asked = (await daemon.events()).find((e) => e.type === 'confirmation.requested')
    if (asked?.type !== 'confirmation.requested') throw new Error('no confirmation was asked')
    await answerAs(daemon, asked.callId, 'allow_tool', 'the person in the WebShell')
    const screen = await terminal.waitForScreen('the call to end', (text) =>
      text.includes('ferry exited with 0'),
    )
    expect(screen).toContain('mcp_fx_slow: always allowed this tool by the person in the WebShell')
    expect(screen).toContain('done')
  })
})
