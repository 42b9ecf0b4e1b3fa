// Shared pieces of the inputs tests: server-everything as a configured server, a WebSocket client
// that can answer questions, and waiting for a call's questions and its end.

import { createRequire } from 'node:module'
import type { StreamMessage, TranscriptEvent } from '../src/protocol/index.js'
import { waitFor, type Daemon } from './harness.js'
import { openStream, type TestStream } from './stream-harness.js'

export const everythingPath = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-everything/dist/index.js',
)

/** A settings entry running server-everything over stdio (trusted: no confirmations). */
export function everything(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { command: process.execPath, args: [everythingPath, 'stdio'], trust: true, ...extra }
}

export type Requested = Extract<TranscriptEvent, { type: 'input.requested' }>
export type Resolved = Extract<TranscriptEvent, { type: 'input.resolved' }>

/** A tab-like client: attached to the default session, able to answer. */
export async function answerer(daemon: Daemon, label = 'the tab'): Promise<TestStream> {
  const stream = await openStream(daemon)
  stream.send({ type: 'hello', client: { kind: 'webshell', label } })
  await stream.subscribe()
  return stream
}

/** Events stored after the stream subscribed, not those its subscription replayed. */
export function fresh(stream: TestStream): TranscriptEvent[] {
  const subscribed = stream.messages.find((m) => m.type === 'subscribed')
  const head = subscribed?.type === 'subscribed' ? subscribed.headSeq : 0
  return stream.events.filter((event) => event.seq > head)
}

/** The first question of `server` stored after the stream subscribed. */
export function questionOf(stream: TestStream, server: string): Promise<Requested> {
  return waitFor(
    () =>
      fresh(stream).find(
        (e): e is Requested => e.type === 'input.requested' && e.server === server,
      ),
    15_000,
    `a question of ${server}`,
  )
}

let refs = 0

/** Starts a call from `stream`; resolves with its id once it is recorded. */
export async function startCall(
  stream: TestStream,
  tool: string,
  args: Record<string, unknown> = {},
  timeoutMs?: number,
): Promise<{ callId: string; ref: string }> {
  const ref = `call-${++refs}`
  const seen = stream.events.length
  stream.send({
    type: 'call',
    ref,
    tool,
    arguments: args,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  })
  const requested = await waitFor(
    () => stream.events.slice(seen).find((e) => e.type === 'call.requested' && e.tool === tool),
    15_000,
    `${tool} to be requested`,
  )
  if (requested.type !== 'call.requested') throw new Error('unreachable')
  return { callId: requested.callId, ref }
}

/** The next question of `callId` the stream saw (after the `skip` it already handled). */
export function nextInput(stream: TestStream, callId: string | null, skip = 0): Promise<Requested> {
  return waitFor(
    () =>
      stream.events.filter(
        (e): e is Requested => e.type === 'input.requested' && e.callId === callId,
      )[skip],
    15_000,
    `question ${skip + 1} of call ${callId ?? '(none)'}`,
  )
}

export function resolvedOf(stream: TestStream, inputId: string): Promise<Resolved> {
  return waitFor(
    () =>
      stream.events.find(
        (e): e is Resolved => e.type === 'input.resolved' && e.inputId === inputId,
      ),
    15_000,
    `question ${inputId} to be resolved`,
  )
}

/** Answers through the stream; resolves with the reply. */
export async function answerInput(
  stream: TestStream,
  inputId: string,
  answer: { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> },
): Promise<Extract<StreamMessage, { type: 'reply' }>> {
  const ref = `answer-${++refs}`
  stream.send({ type: 'answer_input', ref, inputId, ...answer })
  return stream.reply(ref)
}

/** The call's end as recorded: its result's text, or its failure. */
export async function endOf(
  stream: TestStream,
  callId: string,
): Promise<{ text: string; event: TranscriptEvent }> {
  const event = await waitFor(
    () =>
      stream.events.find(
        (e) =>
          (e.type === 'call.result' || e.type === 'call.failed' || e.type === 'call.cancelled') &&
          e.callId === callId,
      ),
    30_000,
    `call ${callId} to end`,
  )
  if (event.type !== 'call.result') return { text: JSON.stringify(event), event }
  const content = (event.result as { content?: Array<{ text?: string }> }).content ?? []
  return { text: content.map((block) => block.text ?? '').join('\n'), event }
}
