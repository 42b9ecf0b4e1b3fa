import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { CompletionResponse } from '../../../daemon/src/protocol/index.js'
import { createCompleter } from './completer.js'

function answer(values: string[]): CompletionResponse {
  return { values, total: values.length, hasMore: false }
}

describe('completion suggestions', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('ask once after a pause in typing, for the last value typed', async () => {
    const asked: string[] = []
    const completer = createCompleter(async (value) => {
      asked.push(value)
      return answer([`${value}1`, `${value}2`])
    }, 200)
    completer.typed('E')
    completer.typed('En')
    completer.typed('Eng')
    await vi.advanceTimersByTimeAsync(199)
    expect(asked).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(asked).toEqual(['Eng'])
    expect(completer.suggestions.value).toEqual(['Eng1', 'Eng2'])
  })

  it('ignore an answer that arrives after the field changed', async () => {
    const pending: { value: string; resolve: (answer: CompletionResponse) => void }[] = []
    const completer = createCompleter(
      (value) => new Promise((resolve) => pending.push({ value, resolve })),
      10,
    )
    completer.typed('a')
    await vi.advanceTimersByTimeAsync(10)
    completer.typed('al')
    await vi.advanceTimersByTimeAsync(10)
    expect(pending.map((entry) => entry.value)).toEqual(['a', 'al'])
    // The newer answer first, then the stale one: the stale one must not replace it.
    pending[1]?.resolve(answer(['alice', 'albert']))
    await vi.advanceTimersByTimeAsync(0)
    pending[0]?.resolve(answer(['anna', 'alice']))
    await vi.advanceTimersByTimeAsync(0)
    expect(completer.suggestions.value).toEqual(['alice', 'albert'])
    // A cleared field takes no answer that was still coming.
    completer.typed('ali')
    await vi.advanceTimersByTimeAsync(10)
    completer.clear()
    pending[2]?.resolve(answer(['alice']))
    await vi.advanceTimersByTimeAsync(0)
    expect(completer.suggestions.value).toEqual([])
  })

  it('offer nothing when the server fails, and never the value already typed', async () => {
    let fail = true
    const completer = createCompleter(async (value) => {
      if (fail) throw new Error('no completions')
      return answer([value, 'Engineering', 7 as unknown as string])
    }, 5)
    completer.typed('E')
    await vi.advanceTimersByTimeAsync(5)
    expect(completer.suggestions.value).toEqual([])
    fail = false
    completer.typed('E')
    await vi.advanceTimersByTimeAsync(5)
    expect(completer.suggestions.value).toEqual(['Engineering'])
  })
})
