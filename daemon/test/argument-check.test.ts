// One argument check on the call path every client takes: REST, NDJSON, the stream, `/mcp` in both
// eras, an App's request and `ferry call` each refuse arguments the transcript could not keep whole,
// that the tool's schema refuses or that are no object, record none of them, and never send them.

import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CallStreamLine, StreamMessage, TranscriptEvent } from '../src/protocol/index.js'
import { appCall, openTab, type Reply } from './app-requests-rig.js'
import { createGatewayToken } from './gateway-harness.js'
import { envelope, mcp, modernHeaders, openLegacySession, sessionHeaders } from './gateway-wire.js'
import { runCliInProcess } from './cli-in-process.js'
import { cleanup, fixture, readJsonLines, tempDir, waitFor } from './harness.js'
import { startInProcess, type InProcessDaemon } from './in-process.js'
import { openStream, type TestStream } from './stream-harness.js'

const TOOL = 'mcp_host_echo'

/** What an entry answered: the refusal's code and message, or the echoed text. */
type Outcome = { refused: { code: string | number; message: string } } | { echoed: string }

/** Sends a call of echo whose arguments are the JSON text `args`. */
type Send = (args: string) => Promise<Outcome>

/** Arguments whose `deep` member nests arrays `levels` deep, written without a serialiser. */
function deep(levels: number): string {
  return `{"text":"x","deep":${'['.repeat(levels)}${']'.repeat(levels)}}`
}

// 1 MB on the wire, within every entry's 1 MiB limit, but 4.4 MB once the call's event writes each
// number out in full (9e20 is 900000000000000000000): more than a transcript keeps whole.
const OVERSIZE = `{"text":"x","pad":[${Array.from({ length: 200_000 }, () => '9e20').join(',')}]}`

const DEEPER =
  /^arguments nest objects and arrays deeper than 63 levels, .*; send flatter arguments$/
const LARGER =
  /^arguments put the call's transcript event \d+ KiB over the 4 MiB limit, more than a transcript keeps whole; send smaller arguments$/
const SCHEMA =
  "arguments do not fit the tool's input schema: arguments/text must be string; see its inputSchema in the tool list"

let daemon: InProcessDaemon
let record: string
let gatewayToken: string
const streams: TestStream[] = []

function fromLines(lines: CallStreamLine[]): Outcome {
  const last = lines.at(-1)
  if (last !== undefined && 'error' in last) return { refused: last.error }
  if (last !== undefined && 'result' in last) return echoed(last.result)
  throw new Error(`no result or error line in ${JSON.stringify(lines).slice(0, 300)}`)
}

function echoed(result: unknown): Outcome {
  const content = (result as { content?: Array<{ text?: string }> }).content
  return { echoed: content?.[0]?.text ?? JSON.stringify(result) }
}

/** A JSON-RPC answer on `/mcp`: its error, or its result's text. */
function fromRpc(message: Record<string, unknown> | undefined, text: string): Outcome {
  const error = message?.error as { code: number; message: string } | undefined
  if (error !== undefined) return { refused: { code: error.code, message: error.message } }
  if (message?.result !== undefined) return echoed(message.result)
  throw new Error(`no JSON-RPC answer in ${text.slice(0, 300)}`)
}

/** A stream reply: its error, or (for an App's call) the result it carries. */
function fromReply(reply: Reply): Outcome {
  if (!reply.ok) return { refused: reply.error }
  return 'result' in reply ? echoed(reply.result) : { echoed: 'ok' }
}

let refs = 0

async function restCall(args: string, accept: string): Promise<Response> {
  return daemon.api('/call', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept },
    body: `{"tool":"${TOOL}","arguments":${args}}`,
  })
}

/** Each entry's sender and the error code it answers a refusal with; set up once the daemon runs. */
const ENTRIES: Array<{
  name: string
  code: string | number
  /** How the entry's own request shape refuses arguments that are not an object, before the call path. */
  shape: { code: string | number; message: RegExp }
  /** A gateway client's refusals are recorded as notices. */
  gateway?: true
  open: () => Promise<Send>
}> = [
  {
    name: 'REST',
    code: 'invalid_arguments',
    shape: { code: 'bad_request', message: /^arguments: .*expected record, received array$/ },
    open: async () => async (args) => {
      const response = await restCall(args, 'application/json')
      const body = (await response.json()) as { error?: { code: string; message: string } }
      if (body.error === undefined) return echoed((body as { result: unknown }).result)
      expect(response.status).toBe(body.error.code === 'invalid_arguments' ? 422 : 400)
      return { refused: body.error }
    },
  },
  {
    name: 'REST with NDJSON',
    code: 'invalid_arguments',
    shape: { code: 'bad_request', message: /^arguments: .*expected record, received array$/ },
    open: async () => async (args) => {
      const text = await (await restCall(args, 'application/x-ndjson')).text()
      const lines = text.split('\n').filter((line) => line !== '')
      return fromLines(lines.map((line) => JSON.parse(line) as CallStreamLine))
    },
  },
  {
    name: 'the stream',
    code: 'invalid_arguments',
    shape: { code: 'bad_request', message: /^arguments: .*expected record, received array$/ },
    open: async () => {
      const stream = await openStream(daemon)
      streams.push(stream)
      return async (args) => {
        const ref = `call-${++refs}`
        const from = stream.messages.length
        stream.ws.send(`{"type":"call","ref":"${ref}","tool":"${TOOL}","arguments":${args}}`)
        // A command that does not fit the stream's shape is refused without its ref.
        const reply = await waitFor(
          () =>
            stream.messages
              .slice(from)
              .find(
                (m): m is Reply | Extract<StreamMessage, { type: 'error' }> =>
                  m.type === 'error' || (m.type === 'reply' && m.ref === ref),
              ),
          15_000,
          `the answer to ${ref}`,
        )
        if (reply.type === 'error') return { refused: reply.error }
        if (!reply.ok) return fromReply(reply)
        // The reply comes once the call's result is stored.
        const result = (await daemon.events()).find(
          (event) => event.type === 'call.result' && event.callId === reply.callId,
        )
        return echoed(result?.type === 'call.result' ? result.result : undefined)
      }
    },
  },
  {
    name: '/mcp, 2025-11-25 session',
    code: -32602,
    shape: {
      code: -32602,
      message: /^Invalid tools\/call request: .*expected record, received array/s,
    },
    gateway: true,
    open: async () => {
      const session = await openLegacySession(daemon, gatewayToken)
      return async (args) => {
        const body = `{"jsonrpc":"2.0","id":${++refs},"method":"tools/call","params":{"name":"${TOOL}","arguments":${args}}}`
        const answer = await mcp(daemon, gatewayToken, { headers: sessionHeaders(session), body })
        return fromRpc(answer.message, answer.text)
      }
    },
  },
  {
    name: '/mcp, 2026-07-28',
    code: -32602,
    shape: {
      code: -32602,
      message: /^Invalid tools\/call request: .*expected record, received array/s,
    },
    gateway: true,
    open: async () => async (args) => {
      const meta = JSON.stringify(envelope())
      const body = `{"jsonrpc":"2.0","id":${++refs},"method":"tools/call","params":{"name":"${TOOL}","arguments":${args},"_meta":${meta}}}`
      const answer = await mcp(daemon, gatewayToken, {
        headers: modernHeaders('tools/call', TOOL),
        body,
      })
      return fromRpc(answer.message, answer.text)
    },
  },
  {
    name: "an App's tools/call",
    code: 'invalid_arguments',
    shape: {
      code: 'bad_request',
      message: /^params\.arguments: .*expected record, received array$/,
    },
    open: async () => {
      const tab = await openTab(daemon)
      streams.push(tab.stream)
      const appId = await tab.open(await appCall(daemon))
      return async (args) => {
        const ref = `app-${++refs}`
        tab.stream.ws.send(
          `{"type":"app_request","ref":"${ref}","appId":"${appId}","method":"tools/call","params":{"name":"echo","arguments":${args}}}`,
        )
        return fromReply(await tab.stream.reply(ref))
      }
    },
  },
  {
    name: 'ferry call',
    code: 2,
    shape: { code: 2, message: /^arguments must be a JSON object such as/ },
    open: async () => async (args) => {
      const cli = await runCliInProcess(['--state-dir', daemon.stateDir, 'call', TOOL, '-'], {
        input: args,
      })
      if (cli.code === 0) return { echoed: cli.stdout.trim() }
      const message = /^ferry: (.*)\n$/.exec(cli.stderr)?.[1] ?? cli.stderr
      return { refused: { code: cli.code, message } }
    },
  },
]

/** How often the fixture server received a call of echo. */
async function echoesReceived(): Promise<number> {
  const entries = await readJsonLines<{ method: string; name?: string }>(record)
  return entries.filter((entry) => entry.method === 'tools/call' && entry.name === 'echo').length
}

async function eventsAfter(seq: number): Promise<TranscriptEvent[]> {
  return (await daemon.events()).filter((event) => event.seq > seq)
}

beforeAll(async () => {
  record = join(await tempDir(), 'record.jsonl')
  daemon = await startInProcess({ mcpServers: { host: fixture(['--apps', '--record', record]) } })
  // The transcript's ready event, which follows the notices of the connect: each test counts the
  // events after the last one it saw.
  await daemon.waitForEvent(
    (event) =>
      event.type === 'server.status' && event.server === 'host' && event.status === 'ready',
  )
  gatewayToken = await createGatewayToken(daemon, 'agent')
})

afterAll(async () => {
  for (const stream of streams.splice(0)) stream.ws.close()
  await cleanup()
})

describe.each(ENTRIES)('arguments through $name', ({ name, code, shape, gateway, open }) => {
  it('refuses 70 and 200,000 levels of nesting, arguments over the event bound, arguments the schema refuses and arguments that are not an object, records none of them, and never sends them', async () => {
    const send = await open()
    const head = (await daemon.events()).at(-1)?.seq ?? 0
    const receivedBefore = await echoesReceived()

    for (const [args, message] of [
      [deep(70), DEEPER],
      [deep(200_000), DEEPER],
      [OVERSIZE, LARGER],
      ['{"text":42}', SCHEMA],
    ] as const) {
      expect(await send(args), `${name}: ${args.slice(0, 40)}`).toEqual({
        refused: {
          code,
          message: typeof message === 'string' ? message : expect.stringMatching(message),
        },
      })
    }

    expect(await send('[1]')).toEqual({
      refused: { code: shape.code, message: expect.stringMatching(shape.message) },
    })

    // A later call through the same entry runs and is recorded whole; the refused ones left
    // nothing but, from a gateway client, a notice of each refusal.
    expect(await send(`{"text":"after ${name}"}`)).toEqual({ echoed: `after ${name}` })
    const events = await eventsAfter(head)
    const later = events.find((event) => event.type === 'call.requested')
    expect(later).toMatchObject({ tool: TOOL, arguments: { text: `after ${name}` } })
    expect(later?.truncated).toBeUndefined()
    const callId = later !== undefined && 'callId' in later ? later.callId : undefined
    const others = events.filter((event) => !('callId' in event) || event.callId !== callId)
    const notice = (why: unknown) => ({
      type: 'notice',
      level: 'warning',
      client: expect.objectContaining({ label: 'agent (gateway)' }),
      message: expect.stringMatching(new RegExp(`^gateway call to ${TOOL} refused: ${why}`)),
    })
    expect(others).toEqual(
      gateway === true
        ? [
            expect.objectContaining(notice('arguments nest')),
            expect.objectContaining(notice('arguments nest')),
            expect.objectContaining(notice('arguments put')),
            expect.objectContaining(notice('arguments do not fit')),
          ]
        : [],
    )
    expect((await echoesReceived()) - receivedBefore).toBe(1)
  })
})
