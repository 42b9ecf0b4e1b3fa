import { describe, expect, it } from 'vitest'
import type { SessionInfo } from '../../protocol/index.js'
import { sessionLines } from './daemon-lists.js'

const session = (id: string, headSeq: number) =>
  ({ id, name: id, headSeq, isDefault: false }) as unknown as SessionInfo

describe('sessionLines', () => {
  it('counts each session’s events with the noun agreeing, and marks the one attached', () => {
    expect(sessionLines([session('one', 1), session('two', 2)], 'two')).toEqual([
      '  one  one  1 event',
      '* two  two  2 events  (attached)',
    ])
  })
})
