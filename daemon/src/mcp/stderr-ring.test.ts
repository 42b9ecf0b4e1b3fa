import { describe, expect, it } from 'vitest'
import { LAUNCHER_MARK, type LauncherFact } from './launcher-facts.js'
import { StderrRing } from './stderr-ring.js'

describe('StderrRing', () => {
  it('joins lines split across chunks and keeps only the newest lines', () => {
    const ring = new StderrRing(3)
    ring.push('one\ntw')
    ring.push('o\nthree\nfour\nfi')
    expect(ring.tail()).toEqual(['three', 'four', 'fi'])
  })

  it('shortens very long lines', () => {
    const ring = new StderrRing(10, 5)
    ring.push(`${'x'.repeat(20)}\n`)
    expect(ring.tail()).toEqual(['xxxxx…'])
  })

  it('takes launcher facts out of the stream', () => {
    const facts: LauncherFact[] = []
    const ring = new StderrRing(10, 100, (fact) => facts.push(fact))
    ring.push(`real line\n${LAUNCHER_MARK}{"exit":{"code":3,"signal":null}}\n`)
    expect(ring.tail()).toEqual(['real line'])
    expect(facts).toEqual([{ exit: { code: 3, signal: null } }])
  })
})
