// What the gateway benchmarks call: SDK clients of either era over stdio (the echo fixture itself)
// or Streamable HTTP (Ferry's `/mcp` with a gateway token, or a peer gateway), and a daemon serving
// the echo fixture through its gateway.

import {
  Client,
  SSEClientTransport,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { readFileSync } from 'node:fs'
import type { CallResponse, GatewayTokenCreateResponse } from '../protocol/index.js'
import { fixtureEntry, fixtureServer, startBenchDaemon, type BenchDaemon } from './bench-env.js'

export type Era = 'legacy' | 'modern'

export const ERAS: Era[] = ['legacy', 'modern']

/** CPU time (user and system) a process has used, in ms, from `/proc`. */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
  // utime and stime, the 14th and 15th fields, in clock ticks of 10 ms.
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/** One connected client and the call the benchmarks time. */
export interface EchoClient {
  call(): Promise<void>
  close(): Promise<void>
}

function newClient(era: Era): Client {
  return new Client(
    { name: `bench-${era}`, version: '0' },
    { versionNegotiation: { mode: era === 'legacy' ? 'legacy' : 'auto' } },
  )
}

function checkEra(client: Client, era: Era, where: string): void {
  const got = client.getProtocolEra()
  if (got !== era) throw new Error(`${where}: a ${era} client negotiated ${String(got)}`)
}

/** An error answers as fast as an echo, or faster: only echoes count. */
function expectEcho(result: { content?: unknown; isError?: boolean }, what: string): void {
  const first = (result.content as Array<{ text?: string }> | undefined)?.[0]
  if (result.isError === true || first?.text !== 'x') {
    throw new Error(`${what} did not echo: ${JSON.stringify(result)}`)
  }
}

function echoOf(client: Client, tool: string): () => Promise<void> {
  return async () =>
    expectEcho(await client.callTool({ name: tool, arguments: { text: 'x' } }), tool)
}

export async function stdioClient(era: Era): Promise<EchoClient> {
  const client = newClient(era)
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [fixtureServer] }),
  )
  checkEra(client, era, 'stdio')
  return { call: echoOf(client, 'echo'), close: () => client.close() }
}

export async function httpClient(
  url: string,
  era: Era,
  tool: string,
  headers: Record<string, string> = {},
): Promise<EchoClient> {
  const client = newClient(era)
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } })
  await client.connect(transport)
  try {
    checkEra(client, era, url)
    if ((transport.sessionId !== undefined) !== (era === 'legacy')) {
      throw new Error(`${url}: a ${era} client got session id ${String(transport.sessionId)}`)
    }
  } catch (error) {
    await client.close()
    throw error
  }
  return {
    call: echoOf(client, tool),
    async close() {
      // A legacy client that leaves says so, so the session ends now rather than when idle.
      if (transport.sessionId !== undefined) await transport.terminateSession()
      await client.close()
    },
  }
}

export interface GatewayDaemon {
  daemon: BenchDaemon
  url: string
  connect(era: Era): Promise<EchoClient>
  /** The same echo through Ferry's REST API (`POST /api/call`), on a kept-alive connection. */
  rest: EchoClient
}

/** A daemon serving the echo fixture (trusted, so nothing waits for a person) on `/mcp`. */
export async function startGatewayDaemon(): Promise<GatewayDaemon> {
  const daemon = await startBenchDaemon({
    mcpServers: { echo: fixtureEntry([], { trust: true }) },
  })
  try {
    await daemon.waitAllReady(1)
    const created = await daemon.api<GatewayTokenCreateResponse>('/gateway/tokens', {
      name: 'bench',
    })
    const headers = { authorization: `Bearer ${created.token}` }
    return {
      daemon,
      url: created.url,
      connect: (era) => httpClient(created.url, era, 'mcp_echo_echo', headers),
      rest: {
        async call() {
          const { result } = await daemon.api<CallResponse>('/call', {
            tool: 'mcp_echo_echo',
            arguments: { text: 'x' },
          })
          expectEcho(result, 'the REST call')
        },
        close: async () => {},
      },
    }
  } catch (error) {
    await daemon.stop()
    throw error
  }
}

/** A legacy client over the HTTP+SSE transport (a GET event stream, messages POSTed beside it). */
export async function sseClient(url: string, tool: string): Promise<EchoClient> {
  const client = newClient('legacy')
  await client.connect(new SSEClientTransport(new URL(url)))
  return { call: echoOf(client, tool), close: () => client.close() }
}
