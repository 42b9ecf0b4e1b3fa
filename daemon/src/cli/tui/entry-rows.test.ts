import { describe, expect, it } from 'vitest'
import { callRows, entryHeight, previewLines, visibleTail } from './entry-rows.js'
import type { CallEntry, FeedEntry } from './fold-events.js'

function call(change: Partial<CallEntry> = {}): CallEntry {
  return {
    kind: 'call',
    key: 'k',
    callId: 'a',
    tool: 'mcp_fx_slow',
    server: 'fx',
    arguments: {},
    caller: 'ferry call (pid 1)',
    time: '2026-01-02T03:04:05.000Z',
    state: 'requested',
    progress: null,
    confirmation: null,
    output: null,
    note: null,
    ...change,
  }
}

const line = (key: string): FeedEntry => ({ kind: 'line', key, tone: 'dim', text: key })

describe('callRows', () => {
  it('shows a waiting confirmation, then who answered, then progress while running', () => {
    expect(callRows(call({ state: 'confirming' }))).toEqual([
      { kind: 'head' },
      { kind: 'text', text: '? waiting for a confirmation', tone: 'warning' },
    ])
    const running = call({
      state: 'running',
      confirmation: { outcome: 'allow_once', by: 'tab two' },
      progress: { progress: 1, total: 5, message: 'step 1/5' },
    })
    expect(callRows(running)).toEqual([
      { kind: 'head' },
      { kind: 'text', text: '✓ allowed once by tab two', tone: 'dim' },
      { kind: 'progress', progress: 1, total: 5, message: 'step 1/5' },
    ])
  })

  it('shows results in red when they are errors, and says what ended a call otherwise', () => {
    expect(callRows(call({ state: 'error', output: 'boom' }))[1]).toEqual({
      kind: 'text',
      text: 'boom',
      tone: 'error',
    })
    expect(callRows(call({ state: 'cancelled' }))[1]).toMatchObject({ text: '⊘ cancelled' })
    expect(callRows(call({ state: 'interrupted' }))[1]).toMatchObject({ text: /interrupted/ })
  })
})

describe('previewLines', () => {
  it('cuts long results and says how much was left out', () => {
    expect(previewLines('a\nb\nc\n', 3)).toEqual(['a', 'b', 'c'])
    expect(previewLines('1\n2\n3\n4\n5', 3)).toEqual(['1', '2', '3', '… 2 more lines'])
  })
})

describe('visibleTail', () => {
  it('keeps the newest entries whose rows fit', () => {
    const feed = [line('a'), call({ key: 'c', state: 'done', output: 'x\ny' }), line('b')]
    expect(entryHeight(feed[1] as FeedEntry)).toBe(3)
    expect(visibleTail(feed, 4).map((entry) => entry.key)).toEqual(['c', 'b'])
    expect(visibleTail(feed, 5).map((entry) => entry.key)).toEqual(['a', 'c', 'b'])
  })

  it('always keeps the newest entry, even when it is taller than the pane', () => {
    const tall: FeedEntry = { kind: 'output', key: 'o', title: '/tools', lines: ['1', '2', '3'] }
    expect(visibleTail([line('a'), tall], 2).map((entry) => entry.key)).toEqual(['o'])
  })
})
