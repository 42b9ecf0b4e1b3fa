// A WebSocket client of the daemon's stream for tests: collects events and messages as they come.

import WebSocket from 'ws'
import type { StreamCommand, StreamMessage, TranscriptEvent } from '../src/protocol/index.js'
import type { DaemonSurface } from './harness.js'
import { waitFor } from './harness.js'

export interface TestStream {
  ws: WebSocket
  messages: StreamMessage[]
  events: TranscriptEvent[]
  send(command: StreamCommand): void
  reply(ref: string): Promise<Extract<StreamMessage, { type: 'reply' }>>
  closed: Promise<{ code: number; reason: string }>
}

export function streamUrl(daemon: DaemonSurface): string {
  return `ws://127.0.0.1:${daemon.info.port}/api/stream`
}

export async function openStream(
  daemon: DaemonSurface,
  options: { token?: string; protocols?: string[]; headers?: Record<string, string> } = {},
): Promise<TestStream> {
  const protocols = options.protocols ?? [
    'ferry.v1',
    `ferry.auth.${options.token ?? daemon.info.token}`,
  ]
  const ws = new WebSocket(streamUrl(daemon), protocols, { headers: options.headers })
  const messages: StreamMessage[] = []
  const events: TranscriptEvent[] = []
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  )
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString()) as StreamMessage
    messages.push(message)
    if (message.type === 'event') events.push(message.event)
  })
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
  })
  return {
    ws,
    messages,
    events,
    closed,
    send: (command) => ws.send(JSON.stringify(command)),
    reply: (ref) =>
      waitFor(
        () =>
          messages.find(
            (m): m is Extract<StreamMessage, { type: 'reply' }> =>
              m.type === 'reply' && m.ref === ref,
          ),
        15_000,
        `reply ${ref}`,
      ),
  }
}
