// A daemon for gateway call tests: a stdio fixture (recording what it receives) and a Streamable
// HTTP fixture, neither trusted, a gateway token `agent`, and a WebSocket client in the role of
// the person's WebShell tab that answers confirmations and sees every event.

import type { TranscriptEvent } from '../src/protocol/index.js'
import {
  connectGateway,
  createGatewayToken,
  startHttpFixture,
  type ClientFlavour,
  type GatewayClient,
} from './gateway-harness.js'
import {
  cleanup,
  fixture,
  httpServerPath,
  readJsonLines,
  tempDir,
  waitFor,
  type Daemon,
} from './harness.js'
import { startInProcess } from './in-process.js'
import { openStream, type TestStream } from './stream-harness.js'

export const TAB_LABEL = 'the tab'
/** The originator of the `agent` token's events. */
export const AGENT = { id: 'mcp:agent', kind: 'mcp', label: 'agent (gateway)' }

type EventOf<T extends TranscriptEvent['type']> = Extract<TranscriptEvent, { type: T }>

export interface GatewayRig {
  daemon: Daemon
  tab: TestStream
  /** The `agent` token. */
  token: string
  /** A client on `/mcp`, closed by `close`; `as` another token than `agent`'s. */
  connect(flavour: ClientFlavour, as?: string): Promise<GatewayClient>
  /** The first event the tab receives from now on of `type` that `match` accepts. */
  nextEvent<T extends TranscriptEvent['type']>(
    type: T,
    match?: (event: EventOf<T>) => boolean,
  ): Promise<EventOf<T>>
  /** The event of `type` for call `callId`, once the tab has it. */
  eventOf<T extends TranscriptEvent['type']>(type: T, callId: string): Promise<EventOf<T>>
  /** The tab's answer to a call's confirmation, as the daemon replied to it. */
  answer(
    callId: string,
    outcome: 'allow_once' | 'deny',
  ): Promise<Awaited<ReturnType<TestStream['reply']>>>
  /** How often the stdio fixture recorded `method` for its tool `name`. */
  recorded(method: string, name: string): Promise<number>
  close(): Promise<void>
}

/** `waitingProgressMs`: how often a client waiting for a person hears that it still waits. */
export async function startGatewayRig(
  options: { waitingProgressMs?: number } = {},
): Promise<GatewayRig> {
  const record = `${await tempDir()}/record.jsonl`
  const http = await startHttpFixture(httpServerPath)
  const clients: GatewayClient[] = []
  const close = async () => {
    await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})))
    tab?.ws.close()
    http.stop()
    await cleanup()
  }
  let tab: TestStream | undefined
  try {
    const daemon = await startInProcess(
      {
        mcpServers: {
          local: fixture(['--record', record], { trust: false }),
          remote: { url: http.url },
        },
      },
      { gatewayWaitingProgressMs: options.waitingProgressMs },
    )
    await Promise.all([
      daemon.waitForStatus('local', 'ready'),
      daemon.waitForStatus('remote', 'ready'),
    ])
    const token = await createGatewayToken(daemon, 'agent')
    const stream = await openStream(daemon)
    tab = stream
    stream.send({ type: 'hello', client: { kind: 'webshell', label: TAB_LABEL } })
    await stream.subscribe()
    const find = <T extends TranscriptEvent['type']>(
      from: number,
      type: T,
      match: (event: EventOf<T>) => boolean,
      what: string,
    ) =>
      waitFor(
        () =>
          stream.events
            .slice(from)
            .find(
              (event): event is EventOf<T> => event.type === type && match(event as EventOf<T>),
            ),
        20_000,
        what,
      )
    return {
      daemon,
      tab: stream,
      token,
      connect: async (flavour, as = token) => {
        const client = await connectGateway(daemon, as, flavour)
        clients.push(client)
        return client
      },
      nextEvent: (type, match = () => true) =>
        find(stream.events.length, type, match, `a ${type} event`),
      eventOf: (type, callId) =>
        find(
          0,
          type,
          (event) => 'callId' in event && event.callId === callId,
          `${type} of call ${callId}`,
        ),
      answer: (callId, outcome) => {
        const ref = `answer-${callId}-${stream.messages.length}`
        stream.send({ type: 'answer', ref, callId, outcome })
        return stream.reply(ref)
      },
      recorded: async (method, name) => {
        const entries = await readJsonLines<{ method: string; name?: string }>(record)
        return entries.filter((entry) => entry.method === method && entry.name === name).length
      },
      close,
    }
  } catch (error) {
    await close()
    throw error
  }
}
