import {
  Client,
  StreamableHTTPClientTransport,
  type ElicitResult,
} from '@modelcontextprotocol/client'
import { afterEach, describe, expect, it } from 'vitest'
import type { GrantInfo, GrantsResponse, TranscriptEvent } from '../src/protocol/index.js'
import { cleanup, fixture, waitFor, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'
import { openStream } from './stream-harness.js'

afterEach(cleanup)

type Era = 'legacy' | 'modern'
type ElicitParams = { message: string; requestedSchema: Record<string, unknown> }

const json = { 'content-type': 'application/json' }
const quick = { steps: 0 }

async function token(daemon: Daemon, name: string, flags: string[] = []): Promise<string> {
  const created = await daemon.cli(['gateway', 'token', 'create', name, ...flags])
  expect(created.stderr).toContain('Gateway token')
  return created.stdout.trim()
}

/** An SDK gateway client; with `answer` it declares form elicitation and answers through it. */
async function agent(
  daemon: Daemon,
  secret: string,
  era: Era,
  answer?: (params: ElicitParams) => Promise<ElicitResult>,
): Promise<Client> {
  const client = new Client(
    { name: `agent-${era}`, version: '1.0.0' },
    {
      capabilities: answer === undefined ? {} : { elicitation: { form: {} } },
      versionNegotiation: era === 'legacy' ? { mode: 'legacy' } : { mode: 'auto' },
    },
  )
  if (answer !== undefined) {
    client.setRequestHandler('elicitation/create', (request) =>
      answer(request.params as unknown as ElicitParams),
    )
  }
  await client.connect(
    new StreamableHTTPClientTransport(new URL('mcp', daemon.info.url), {
      requestInit: { headers: { authorization: `Bearer ${secret}` } },
    }),
  )
  return client
}

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
      tab.send({ type: 'subscribe' })
      await waitFor(() => tab.messages.some((m) => m.type === 'subscribed') || undefined)
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
