// SDK v2 clients of a test daemon's `/mcp`, in either era, with a gateway token made through the
// real CLI. A legacy client's server-to-client stream (its GET) is observable, so a test can wait
// until notifications have somewhere to arrive.

import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import type { ListChangedHandlers } from '@modelcontextprotocol/client'
import type { Daemon } from './harness.js'

export type Era = 'legacy' | 'modern'

/** The SDK's negotiation mode that lands a client in `era` against Ferry. */
export const modeOf = { legacy: 'legacy', modern: 'auto' } as const

export async function gatewayToken(
  daemon: Daemon,
  name: string,
  flags: string[] = [],
): Promise<string> {
  const created = await daemon.cli(['gateway', 'token', 'create', name, ...flags])
  if (created.code !== 0) throw new Error(`token create failed: ${created.stderr}`)
  return created.stdout.trim()
}

export interface GatewayClient {
  client: Client
  /** Settles once the legacy session's GET stream is open (never for a modern client). */
  streamOpen: Promise<void>
}

export async function connectGateway(
  daemon: Daemon,
  token: string,
  era: Era,
  listChanged?: ListChangedHandlers,
): Promise<GatewayClient> {
  let opened: () => void = () => {}
  const streamOpen = new Promise<void>((resolve) => (opened = resolve))
  const client = new Client(
    { name: `surface-${era}`, version: '1.0.0' },
    {
      versionNegotiation: { mode: modeOf[era] },
      ...(listChanged === undefined ? {} : { listChanged }),
    },
  )
  const transport = new StreamableHTTPClientTransport(new URL('mcp', daemon.info.url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
    fetch: async (url, init) => {
      const response = await fetch(url, init)
      if (init?.method === 'GET' && response.ok) opened()
      return response
    },
  })
  await client.connect(transport)
  if (client.getProtocolEra() !== era) {
    throw new Error(`expected a ${era} client, got ${String(client.getProtocolEra())}`)
  }
  return { client, streamOpen }
}

/** Gateway clients a test opens with its tokens, every one closed by `closeAll` at its end. */
export class OpenedClients {
  private readonly clients: Client[] = []

  constructor(private readonly daemon: () => Daemon) {}

  async open(token: string, era: Era, listChanged?: ListChangedHandlers): Promise<Client> {
    const { client } = await connectGateway(this.daemon(), token, era, listChanged)
    this.clients.push(client)
    return client
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.clients.map((client) => client.close().catch(() => {})))
  }
}

/** The ProtocolError a request was refused with; any other outcome fails the test. */
export async function refusalOf(promise: Promise<unknown>): Promise<ProtocolError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  if (!(error instanceof ProtocolError)) throw new Error(`expected a ProtocolError, got ${error}`)
  return error
}
