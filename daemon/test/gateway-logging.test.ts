// A server's log messages during a gateway client's call reach that client, at the level the
// client chose: a legacy session's `logging/setLevel`, a 2026-07-28 request's own `_meta` level.
// Those that belong to no call reach legacy sessions, which have a stream for them.

import type { Client, LoggingLevel } from '@modelcontextprotocol/client'
import { LOG_LEVEL_META_KEY } from '@modelcontextprotocol/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanup, fixture, waitFor, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'
import { connectGateway, gatewayToken, type Era } from './gateway-surface-clients.js'

let daemon: Daemon
let token: string
const clients: Client[] = []

beforeAll(async () => {
  daemon = await startInProcess({
    // Ferry asks the server for everything, so what a client hears is its own level's choice.
    mcpServers: { logs: fixture(['--log-tool', '--era', 'legacy'], { logLevel: 'debug' }) },
  })
  await daemon.waitForStatus('logs', 'ready')
  token = await gatewayToken(daemon, 'logging')
})

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => {})))
  await cleanup()
})

/** A client that keeps the levels of the log messages it hears. */
async function listening(era: Era): Promise<{ client: Client; heard: LoggingLevel[] }> {
  const { client } = await connectGateway(daemon, token, era)
  clients.push(client)
  const heard: LoggingLevel[] = []
  client.setNotificationHandler('notifications/message', (notification) => {
    heard.push(notification.params.level)
  })
  return { client, heard }
}

const SEVERE = ['warning', 'error', 'critical', 'alert', 'emergency']

describe('server logs through the gateway', () => {
  it('declares logging and gives a legacy client its call’s messages at the level it set', async () => {
    const { client, heard } = await listening('legacy')
    expect(client.getServerCapabilities()?.logging).toEqual({})
    await client.setLoggingLevel('warning')
    await client.callTool({ name: 'mcp_logs_emit_logs', arguments: {} })
    await waitFor(() => heard.length >= SEVERE.length, 5_000, 'the severe messages')
    // The server sends the least severe first: any of those passed on would come before these.
    expect(heard).toEqual(SEVERE)
  })

  it('gives a legacy client that set no level every message of its call', async () => {
    const { client, heard } = await listening('legacy')
    await client.callTool({ name: 'mcp_logs_emit_logs', arguments: {} })
    await waitFor(() => heard.length >= 8, 5_000, 'all eight messages')
    expect(heard).toEqual(['debug', 'info', 'notice', ...SEVERE])
  })

  it('gives a legacy client the messages of its servers that belong to no call, at the level it set', async () => {
    const { client } = await listening('legacy')
    const heard: string[] = []
    client.setNotificationHandler('notifications/message', (notification) => {
      heard.push(`${notification.params.level} ${String(notification.params.data)}`)
    })
    await client.setLoggingLevel('warning')
    // Each call's message after its answer belongs to no call: below the level, then at it.
    const emit = (level: LoggingLevel, text: string) =>
      client.callTool({
        name: 'mcp_logs_emit_logs',
        arguments: { count: 1, level, text, afterMs: 0 },
      })
    await emit('info', 'quiet')
    await emit('error', 'loud')
    await waitFor(() => heard.length >= 2, 5_000, 'the call’s message and the one after it')
    // The message after the first call came before the second call's: passed on, it would be first.
    expect(heard).toEqual(['error loud', 'error loud'])
    const recorded = (await daemon.events()).filter(
      (event) => event.type === 'server.log' && event.data === 'loud',
    )
    expect(recorded.map((event) => 'callId' in event && event.callId === null)).toEqual([
      false,
      true,
    ])
  })

  it('gives a 2026-07-28 client the messages at the level its request carries', async () => {
    const { client, heard } = await listening('modern')
    await client.callTool({
      name: 'mcp_logs_emit_logs',
      arguments: {},
      _meta: { [LOG_LEVEL_META_KEY]: 'error' },
    })
    await waitFor(() => heard.length >= 4, 5_000, 'the messages from error up')
    expect(heard).toEqual(SEVERE.slice(1))
  })
})
