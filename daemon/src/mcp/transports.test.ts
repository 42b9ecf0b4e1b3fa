import { InMemoryTransport, type JSONRPCMessage } from '@modelcontextprotocol/client'
import { describe, expect, it } from 'vitest'
import { WORK_PER_TURN } from '../turns.js'
import { withHooks } from './transports.js'

const hooks = { onStderr: () => {}, negotiatedVersion: () => undefined }

function logMessage(n: number): JSONRPCMessage {
  return { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: n } }
}

describe('a server transport as a connection sees it', () => {
  it('hands over a burst a turn’s share at a time, and its close only after all of it', async () => {
    const [daemonEnd, serverEnd] = InMemoryTransport.createLinkedPair()
    const transport = withHooks(daemonEnd, hooks)
    const seen: unknown[] = []
    transport.onmessage = (message) =>
      seen.push('params' in message ? message.params?.data : message)
    const closed = new Promise<void>((resolve) => {
      transport.onclose = () => {
        seen.push('closed')
        resolve()
      }
    })
    await transport.start()
    await serverEnd.start()
    const burst = 3 * WORK_PER_TURN
    // One synchronous burst, as from one read of the server's output, then the server goes away.
    for (let n = 0; n < burst; n++) void serverEnd.send(logMessage(n))
    expect(seen).toHaveLength(WORK_PER_TURN)
    void serverEnd.close()
    await closed
    expect(seen).toEqual([...Array.from({ length: burst }, (_, n) => n), 'closed'])
  })
})
