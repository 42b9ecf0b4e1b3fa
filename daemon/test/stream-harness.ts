// A WebSocket client of the daemon's stream for tests: collects events and messages as they come.

import WebSocket from 'ws'
import type { StreamCommand, StreamMessage, TranscriptEvent } from '../src/protocol/index.js'
import type { Daemon } from './harness.js'
import { waitFor } from './harness.js'

export interface TestStream {
  ws: WebSocket
  messages: StreamMessage[]
  events: TranscriptEvent[]
  send(command: StreamCommand): void
  reply(ref: string): Promise<Extract<StreamMessage, { type: 'reply' }>>
  /**
   * Subscribes to `session` (the default one unless named) and resolves once the events stored
   * before it have arrived. They come after `subscribed`, so until then an event the stream holds
   * may not be the newest of its kind.
   */
  subscribe(session?: string): Promise<Extract<StreamMessage, { type: 'subscribed' }>>
  closed: Promise<{ code: number; reason: string }>
}

export function streamUrl(daemon: Daemon): string {
  return `ws://127.0.0.1:${daemon.info.port}/api/stream`
}

export async function openStream(
  daemon: Daemon,
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
  const send = (command: StreamCommand) => ws.send(JSON.stringify(command))
  return {
    ws,
    messages,
    events,
    closed,
    send,
    subscribe: async (session) => {
      const from = messages.length
      send({ type: 'subscribe', ...(session === undefined ? {} : { session }) })
      const subscribed = await waitFor(
        () =>
          messages
            .slice(from)
            .find(
              (m): m is Extract<StreamMessage, { type: 'subscribed' }> => m.type === 'subscribed',
            ),
        15_000,
        'the subscription',
      )
      const head = subscribed.headSeq
      await waitFor(
        () =>
          head <= subscribed.afterSeq ||
          messages
            .slice(from)
            .some(
              (m) =>
                (m.type === 'event' && m.event.seq >= head) ||
                (m.type === 'snapshot' && (m.events.at(-1)?.seq ?? 0) >= head),
            ) ||
          undefined,
        15_000,
        `the events up to seq ${head}`,
      )
      return subscribed
    },
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
