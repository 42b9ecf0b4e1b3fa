import { describe, expect, it } from 'vitest'
import { progressBar } from './progress-bar.js'

describe('progressBar', () => {
  it('fills cells in proportion to progress over total', () => {
    expect(progressBar(0, 4, 8)).toBe('░░░░░░░░ 0/4')
    expect(progressBar(2, 4, 8)).toBe('████░░░░ 2/4')
    expect(progressBar(4, 4, 8)).toBe('████████ 4/4')
  })

  it('clamps progress beyond the total and shows a count when the total is unknown', () => {
    expect(progressBar(9, 4, 4)).toBe('████ 9/4')
    expect(progressBar(3, undefined, 4)).toBe('░░░░ 3')
    expect(progressBar(3, 0, 4)).toBe('░░░░ 3')
  })
})
