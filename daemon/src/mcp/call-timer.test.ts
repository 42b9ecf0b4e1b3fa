import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { CallTimer, type Expiry } from './call-timer.js'

describe('CallTimer', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('runs out after the idle limit without progress, and progress starts it again', () => {
    const expired: Expiry[] = []
    const timer = new CallTimer(100, 1_000, (expiry) => expired.push(expiry))
    vi.advanceTimersByTime(90)
    timer.progress()
    vi.advanceTimersByTime(90)
    expect(expired).toEqual([])
    vi.advanceTimersByTime(10)
    expect(expired).toEqual(['idle'])
  })

  it('stands still while a question is open, however long, and starts afresh after the answer', () => {
    const expired: Expiry[] = []
    const timer = new CallTimer(100, 1_000, (expiry) => expired.push(expiry))
    vi.advanceTimersByTime(90)
    timer.hold()
    timer.hold()
    vi.advanceTimersByTime(60_000)
    timer.release()
    vi.advanceTimersByTime(60_000)
    expect(expired).toEqual([])
    timer.release()
    vi.advanceTimersByTime(99)
    expect(expired).toEqual([])
    vi.advanceTimersByTime(1)
    expect(expired).toEqual(['idle'])
  })

  it('counts only working time toward the total limit', () => {
    const expired: Expiry[] = []
    const timer = new CallTimer(100, 250, (expiry) => expired.push(expiry))
    for (let step = 0; step < 2; step++) {
      vi.advanceTimersByTime(80)
      timer.progress()
    }
    timer.hold()
    vi.advanceTimersByTime(10_000)
    timer.release()
    // 160 ms of work so far: 90 more reach the total limit of 250.
    vi.advanceTimersByTime(89)
    expect(expired).toEqual([])
    vi.advanceTimersByTime(1)
    expect(expired).toEqual(['total'])
  })
})
