// Gateway clients for tests: a gateway token made through the admin API, and real SDK clients
// (v2 in either era, v1) on `/mcp` whose every HTTP request is captured on the way out.

import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import {
  Client,
  StreamableHTTPClientTransport,
  type CallToolResult,
  type ElicitResult,
  type Tool,
} from '@modelcontextprotocol/client'
import type {
  GatewayTokenCreateRequest,
  GatewayTokenCreateResponse,
} from '../src/protocol/index.js'
import type { Daemon } from './harness.js'

/** One HTTP request a client sent to `/mcp`. */
export interface WireRequest {
  method: string
  /** The JSON-RPC methods in the body (`response` for a posted answer). */
  rpc: string[]
  sessionId: string | null
  protocolVersion: string | null
}

export interface CallOptions {
  signal?: AbortSignal
  timeout?: number
  resetTimeoutOnProgress?: boolean
  onprogress?: (progress: { progress: number; total?: number; message?: string }) => void
}

/** `legacy` and `auto` are SDK v2's version negotiation modes; `v1` is the 1.x SDK client. */
export type ClientFlavour = 'legacy' | 'auto' | 'v1'

export interface GatewayClient {
  flavour: ClientFlavour
  requests: WireRequest[]
  /** The era the client settled on; the 1.x client only knows sessions. */
  era: 'legacy' | 'modern'
  listTools(): Promise<Tool[]>
  callTool(
    name: string,
    args: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<CallToolResult>
  /** Ends the client's legacy session with DELETE; nothing for a modern client. */
  endSession(): Promise<void>
  close(): Promise<void>
}

/** A new gateway token for `name`, created with the daemon's admin token. */
export async function createGatewayToken(
  daemon: Daemon,
  name: string,
  options: Omit<GatewayTokenCreateRequest, 'name'> = {},
): Promise<string> {
  const response = await daemon.api('/gateway/tokens', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, ...options }),
  })
  if (response.status !== 201) {
    throw new Error(`creating gateway token ${name}: ${response.status} ${await response.text()}`)
  }
  return ((await response.json()) as GatewayTokenCreateResponse).token
}

export function gatewayUrl(daemon: Daemon): URL {
  return new URL('mcp', daemon.info.url)
}

function rpcMethods(body: unknown): string[] {
  if (typeof body !== 'string') return []
  try {
    const parsed = JSON.parse(body) as unknown
    const messages = Array.isArray(parsed) ? parsed : [parsed]
    return messages.map((message: { method?: unknown }) =>
      typeof message.method === 'string' ? message.method : 'response',
    )
  } catch {
    return []
  }
}

/** A `fetch` that records what goes out before sending it. */
function capturingFetch(requests: WireRequest[]): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers)
    requests.push({
      method: init?.method ?? 'GET',
      rpc: rpcMethods(init?.body),
      sessionId: headers.get('mcp-session-id'),
      protocolVersion: headers.get('mcp-protocol-version'),
    })
    return fetch(input, init)
  }
}

/** Connects an SDK client of `flavour` to the daemon's `/mcp` with `token`. */
export async function connectGateway(
  daemon: Daemon,
  token: string,
  flavour: ClientFlavour,
): Promise<GatewayClient> {
  const requests: WireRequest[] = []
  const requestInit = { headers: { authorization: `Bearer ${token}` } }
  const fetch = capturingFetch(requests)
  const info = { name: `test-${flavour}`, version: '1.0.0' }
  if (flavour === 'v1') {
    const client = new V1Client(info)
    const transport = new V1Transport(gatewayUrl(daemon), { requestInit, fetch })
    await client.connect(transport)
    return {
      flavour,
      requests,
      era: 'legacy',
      listTools: async () => (await client.listTools()).tools as Tool[],
      callTool: async (name, args, options) =>
        (await client.callTool({ name, arguments: args }, undefined, options)) as CallToolResult,
      endSession: () => transport.terminateSession(),
      close: () => client.close(),
    }
  }
  const client = new Client(info, { versionNegotiation: { mode: flavour } })
  const transport = new StreamableHTTPClientTransport(gatewayUrl(daemon), { requestInit, fetch })
  await client.connect(transport)
  return {
    flavour,
    requests,
    era: client.getProtocolEra() === 'modern' ? 'modern' : 'legacy',
    listTools: async () => (await client.listTools()).tools,
    callTool: (name, args, options) => client.callTool({ name, arguments: args }, options),
    endSession: async () => {
      if (transport.sessionId !== undefined) await transport.terminateSession()
    },
    close: () => client.close(),
  }
}

/** What a server (or Ferry, for a confirmation) asks a client through a form elicitation. */
export type ElicitParams = { message: string; requestedSchema: Record<string, unknown> }

/**
 * An SDK v2 client of `/mcp` with `secret`, in `era`; with `answer` it declares form elicitation
 * and answers every elicitation through it.
 */
export async function elicitingClient(
  daemon: Daemon,
  secret: string,
  era: 'legacy' | 'modern',
  answer?: (params: ElicitParams) => Promise<ElicitResult>,
  options: { autoFulfill?: boolean } = {},
): Promise<Client> {
  const client = new Client(
    { name: `test-${era}`, version: '1.0.0' },
    {
      capabilities: answer === undefined ? {} : { elicitation: { form: {} } },
      versionNegotiation: era === 'legacy' ? { mode: 'legacy' } : { mode: 'auto' },
      ...(options.autoFulfill === false ? { inputRequired: { autoFulfill: false } } : {}),
    },
  )
  if (answer !== undefined) {
    client.setRequestHandler('elicitation/create', (request) =>
      answer(request.params as unknown as ElicitParams),
    )
  }
  await client.connect(
    new StreamableHTTPClientTransport(gatewayUrl(daemon), {
      requestInit: { headers: { authorization: `Bearer ${secret}` } },
    }),
  )
  if (client.getProtocolEra() !== era) throw new Error(`expected the ${era} era`)
  return client
}

/**
 * Starts a Streamable HTTP fixture server (e.g. `httpServerPath`) on a free port; `stop` ends it.
 * The test owns the process, so it must call `stop`.
 */
export async function startHttpFixture(
  path: string,
  flags: string[] = [],
): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [path, '--port', '0', ...flags], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const stop = () => void child.kill('SIGTERM')
  try {
    for await (const line of createInterface({ input: child.stdout })) {
      return { url: (JSON.parse(line) as { url: string }).url, stop }
    }
  } catch (error) {
    stop()
    throw error
  }
  stop()
  throw new Error(`${path} printed no url`)
}

/** The text of a result's text blocks, joined. */
export function resultText(result: CallToolResult): string {
  return result.content
    .map((block) => (block.type === 'text' ? block.text : `[${block.type}]`))
    .join('\n')
}
