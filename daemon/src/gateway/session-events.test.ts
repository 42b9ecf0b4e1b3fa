import type { JSONRPCMessage } from '@modelcontextprotocol/server'
import { describe, expect, it } from 'vitest'
import { SessionEvents } from './session-events.js'

const note = (n: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: 't', progress: n },
})

async function replay(store: SessionEvents, after: string) {
  const sent: Array<[string, JSONRPCMessage]> = []
  const stream = await store.replayEventsAfter(after, {
    send: async (id, message) => void sent.push([id, message]),
  })
  return { stream, sent }
}

describe('SessionEvents', () => {
  it("replays what came after an event on that event's stream only, without priming events", async () => {
    const store = new SessionEvents()
    const primed = await store.storeEvent('a', {} as JSONRPCMessage)
    const first = await store.storeEvent('a', note(1))
    await store.storeEvent('b', note(99))
    const second = await store.storeEvent('a', note(2))
    expect(await store.getStreamIdForEventId(first)).toBe('a')
    const { stream, sent } = await replay(store, primed)
    expect(stream).toBe('a')
    expect(sent).toEqual([
      [first, note(1)],
      [second, note(2)],
    ])
    expect((await replay(store, second)).sent).toEqual([])
  })

  it('keeps at most its count and bytes, oldest first out, and refuses to resume from a dropped event', async () => {
    const byCount = new SessionEvents(2, 1_000_000)
    const dropped = await byCount.storeEvent('a', note(1))
    await byCount.storeEvent('a', note(2))
    const last = await byCount.storeEvent('a', note(3))
    expect(await byCount.getStreamIdForEventId(dropped)).toBeUndefined()
    await expect(replay(byCount, dropped)).rejects.toThrow(/no event .* is kept/)
    expect(await byCount.getStreamIdForEventId(last)).toBe('a')

    const size = JSON.stringify(note(1)).length
    const byBytes = new SessionEvents(100, size * 2)
    const gone = await byBytes.storeEvent('a', note(1))
    const kept = await byBytes.storeEvent('a', note(2))
    await byBytes.storeEvent('a', note(3))
    expect(await byBytes.getStreamIdForEventId(gone)).toBeUndefined()
    expect(await byBytes.getStreamIdForEventId(kept)).toBe('a')
    // One message over the whole bound is still kept: its stream is live.
    const tiny = new SessionEvents(100, 10)
    const huge = await tiny.storeEvent('a', note(4))
    expect(await tiny.getStreamIdForEventId(huge)).toBe('a')
  })
})
