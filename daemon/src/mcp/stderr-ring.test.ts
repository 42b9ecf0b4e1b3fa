import { describe, expect, it } from 'vitest'
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
})
