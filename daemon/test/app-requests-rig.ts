// The rig for tests of what a live MCP App may ask: a daemon with the fixture's App server `host`
// (not trusted, so its calls that are not read-only are confirmed) and a plain server `other`, and
// a WebSocket client that plays the WebShell tab speaking for its Apps.

import { expect } from 'vitest'
import type {
  AppMethod,
  AppRequest,
  CallResponse,
  StreamMessage,
  TranscriptEvent,
} from '../src/protocol/index.js'
import { fixture, waitFor, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'
import { openStream, type TestStream } from './stream-harness.js'

export type Reply = Extract<StreamMessage, { type: 'reply' }>

/** The `host` server gives up an App's resource read after this long. */
export const HOST_READ_TIMEOUT_MS = 1000

export async function startAppDaemon(): Promise<Daemon> {
  const daemon = await startInProcess({
    mcpServers: {
      host: fixture(['--apps', '--app-act-tools', '--surface-label', 'host'], {
        trust: false,
        appResourceTimeoutMs: HOST_READ_TIMEOUT_MS,
      }),
      other: fixture([]),
    },
  })
  await daemon.waitForStatus('host', 'ready')
  await daemon.waitForStatus('other', 'ready')
  return daemon
}

let refs = 0

export interface Tab {
  stream: TestStream
  /** Sends a command with a fresh ref and waits for its reply. */
  command(command: Record<string, unknown>): Promise<Reply>
  /** Opens the App of `callId`; the reply's appId. */
  open(callId: string): Promise<string>
  /** One request of App `appId`, answered by its reply. */
  ask<M extends AppMethod>(
    appId: string,
    method: M,
    params: Extract<AppRequest, { method: M }>['params'],
  ): Promise<Reply>
  /** The first event this tab received that `match` accepts. */
  event(match: (event: TranscriptEvent) => boolean, what?: string): Promise<TranscriptEvent>
}

/** A tab subscribed to `session` (the default one unless given), able to answer confirmations. */
export async function openTab(daemon: Daemon, readOnly = false, session?: string): Promise<Tab> {
  const stream = await openStream(daemon)
  stream.send({ type: 'hello', client: { kind: 'webshell', label: 'App tab' }, readOnly })
  await stream.subscribe(session)
  const command = (body: Record<string, unknown>) => {
    const ref = `r${++refs}`
    stream.ws.send(JSON.stringify({ ...body, ref }))
    return stream.reply(ref)
  }
  return {
    stream,
    command,
    async open(callId) {
      const reply = await command({ type: 'app_open', callId })
      if (!reply.ok || reply.appId === undefined) {
        throw new Error(`app_open failed: ${JSON.stringify(reply)}`)
      }
      return reply.appId
    },
    ask: (appId, method, params) => command({ type: 'app_request', appId, method, params }),
    event: (match, what = 'an event') => waitFor(() => stream.events.find(match), 15_000, what),
  }
}

/** Calls `mcp_host_app_show` (read-only, so never confirmed): the call whose result is an App. */
export async function appCall(daemon: Daemon, text = 'shown', session?: string): Promise<string> {
  const response = await daemon.api('/call', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tool: 'mcp_host_app_show', arguments: { text }, session }),
  })
  expect(response.status).toBe(200)
  return ((await response.json()) as CallResponse).id
}

/** The error of a failed reply. */
export function refusal(reply: Reply): { code: string; message: string } {
  if (reply.ok) throw new Error(`expected a refusal, got ${JSON.stringify(reply)}`)
  return reply.error
}
