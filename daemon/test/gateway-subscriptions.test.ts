// Resource subscriptions through the gateway: a legacy client subscribes (a 2026-07-28 client
// names the resources in its subscriptions/listen filter), its token's session follows the
// resource (recorded as the client's), and the server's updates reach that client on its stream
// until it unsubscribes (or closes the stream); a follow several clients hold ends with the last.

import type { Client } from '@modelcontextprotocol/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanup, readJsonLines, tempDir, waitFor, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'
import { connectGateway, gatewayToken } from './gateway-surface-clients.js'
import { offeringsFixture, resourcesOf } from './offerings-rig.js'

let daemon: Daemon
let record: string
let token: string
const clients: Client[] = []

beforeAll(async () => {
  record = `${await tempDir()}/offerings-record`
  daemon = await startInProcess({
    mcpServers: { off: offeringsFixture('legacy', ['--record', record]) },
  })
  await daemon.waitForStatus('off', 'ready')
  await waitFor(
    async () => (await resourcesOf(daemon, 'off')).resources.some((r) => r.uri === 'note://two'),
    10_000,
    'the resources of off',
  )
  token = await gatewayToken(daemon, 'subs')
})

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => {})))
  await cleanup()
})

/** A legacy client that keeps the URIs of the updates it hears, once its stream is open. */
async function subscriber(): Promise<{ client: Client; heard: string[] }> {
  const { client, streamOpen } = await connectGateway(daemon, token, 'legacy')
  clients.push(client)
  const heard: string[] = []
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    heard.push(notification.params.uri)
  })
  await streamOpen
  return { client, heard }
}

const touch = (client: Client, uri: string) =>
  client.callTool({ name: 'mcp_off_touch', arguments: { uri } })

/** What the server was asked to (un)subscribe, in order. */
async function serverSaw(): Promise<string[]> {
  return (await readJsonLines(record))
    .filter((line) => String(line.method).startsWith('resources/'))
    .map((line) => `${String(line.method).slice('resources/'.length)} ${String(line.uri)}`)
}

describe('resource subscriptions through the gateway', () => {
  it('tells a subscribed legacy client of updates until it unsubscribes, as a transcript records', async () => {
    const { client, heard } = await subscriber()
    expect(client.getServerCapabilities()?.resources).toMatchObject({ subscribe: true })
    await client.subscribeResource({ uri: 'note://one' })
    await touch(client, 'note://one')
    await waitFor(() => heard.includes('note://one'), 5_000, 'the update of note://one')
    await client.unsubscribeResource({ uri: 'note://one' })
    await client.subscribeResource({ uri: 'note://two' })
    // An update of note://one would come before this one, on the same stream.
    await touch(client, 'note://one')
    await touch(client, 'note://two')
    await waitFor(() => heard.includes('note://two'), 5_000, 'the update of note://two')
    expect(heard).toEqual(['note://one', 'note://two'])
    const recorded = (await daemon.events()).filter((event) => event.type.startsWith('resource.'))
    expect(
      recorded.map((event) => [event.type, 'uri' in event ? event.uri : '', event.client?.label]),
    ).toEqual(
      expect.arrayContaining([
        ['resource.subscribed', 'note://one', 'subs (gateway)'],
        ['resource.unsubscribed', 'note://one', 'subs (gateway)'],
        ['resource.subscribed', 'note://two', 'subs (gateway)'],
      ]),
    )
    await client.unsubscribeResource({ uri: 'note://two' })
  })

  it('keeps following a resource while another client still holds it', async () => {
    const [first, second] = [await subscriber(), await subscriber()]
    const before = (await serverSaw()).length
    await first.client.subscribeResource({ uri: 'note://two' })
    await second.client.subscribeResource({ uri: 'note://two' })
    await first.client.unsubscribeResource({ uri: 'note://two' })
    // Asked once, and not yet ended: the second client still follows it.
    expect((await serverSaw()).slice(before)).toEqual(['subscribe note://two'])
    await touch(second.client, 'note://two')
    await waitFor(() => second.heard.includes('note://two'), 5_000, 'the second client’s update')
    await second.client.unsubscribeResource({ uri: 'note://two' })
    expect((await serverSaw()).slice(before)).toEqual([
      'subscribe note://two',
      'unsubscribe note://two',
    ])
  })

  it('refuses a subscription to a resource nobody serves', async () => {
    const { client } = await subscriber()
    await expect(client.subscribeResource({ uri: 'note://nowhere' })).rejects.toThrow(
      /no resource "note:\/\/nowhere" is served to this client/,
    )
  })

  it("follows the resources a 2026-07-28 client's subscriptions/listen names while its stream is open, and only those it is served", async () => {
    const modern = (await connectGateway(daemon, token, 'modern')).client
    clients.push(modern)
    expect(modern.getServerCapabilities()?.resources).toMatchObject({ subscribe: true })
    const heard: string[] = []
    modern.setNotificationHandler('notifications/resources/updated', (notification) => {
      heard.push(notification.params.uri)
    })
    const before = (await serverSaw()).length
    const subscription = await modern.listen({
      resourceSubscriptions: ['note://one', 'note://nowhere'],
    })
    // What nobody serves to this client is left out of what the stream follows.
    expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: ['note://one'] })
    expect((await serverSaw()).slice(before)).toEqual(['subscribe note://one'])
    // An update of note://two, which the stream does not name, would come first.
    await touch(modern, 'note://two')
    await touch(modern, 'note://one')
    await waitFor(() => heard.includes('note://one'), 5_000, 'the update of note://one')
    expect(heard).toEqual(['note://one'])
    await subscription.close()
    await waitFor(
      async () => (await serverSaw()).slice(before).includes('unsubscribe note://one'),
      5_000,
      'the follow to end with the stream',
    )
    const recorded = (await daemon.events()).filter(
      (event) => event.type === 'resource.subscribed' && event.uri === 'note://one',
    )
    expect(recorded.at(-1)?.client?.label).toBe('subs (gateway)')
  })
})
