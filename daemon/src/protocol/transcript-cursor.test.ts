import { describe, expect, it } from 'vitest'
import { retryDelay, RETRY_MAX_MS, TranscriptCursor } from './transcript-cursor.js'

describe('the transcript cursor', () => {
  it('takes each event once, however often it is replayed', () => {
    const cursor = new TranscriptCursor()
    expect([1, 2, 2, 1, 3].map((seq) => cursor.accept({ seq }))).toEqual([
      true,
      true,
      false,
      false,
      true,
    ])
    expect(cursor.afterSeq).toBe(3)
  })

  it('moves to the end of a snapshot and names what it adds', () => {
    const cursor = new TranscriptCursor()
    cursor.accept({ seq: 4 })
    const fresh = cursor.snapshot([{ seq: 2 }, { seq: 4 }, { seq: 7 }])
    expect(fresh).toEqual([{ seq: 7 }])
    expect(cursor.afterSeq).toBe(7)
    expect(cursor.snapshot([])).toEqual([])
    expect(cursor.afterSeq).toBe(7)
    cursor.reset()
    expect(cursor.afterSeq).toBe(0)
  })

  it('doubles the wait before each reconnect, up to its bound', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(retryDelay)).toEqual([
      250,
      500,
      1000,
      2000,
      4000,
      RETRY_MAX_MS,
      RETRY_MAX_MS,
      RETRY_MAX_MS,
    ])
  })
})
