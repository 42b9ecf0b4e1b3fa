// Which App is out of the transcript: one at a time, the last to ask.

import { describe, expect, it } from 'vitest'
import { DisplayModes } from './display-modes.js'

describe('DisplayModes', () => {
  it('keeps one App out of the transcript, the one that asked last', () => {
    const modes = new DisplayModes()
    modes.set('a', 'fullscreen')
    expect(modes.modeOf('a')).toBe('fullscreen')
    modes.set('b', 'pip')
    expect(modes.modeOf('a')).toBe('inline')
    expect(modes.modeOf('b')).toBe('pip')
  })

  it('lets only the App that is out give its place up', () => {
    const modes = new DisplayModes()
    modes.set('a', 'pip')
    modes.set('b', 'inline')
    expect(modes.away.value).toEqual({ callId: 'a', mode: 'pip' })
    modes.set('a', 'inline')
    expect(modes.away.value).toBeNull()
  })

  it('does not signal a change when an App asks again for the mode it is in', () => {
    const modes = new DisplayModes()
    modes.set('a', 'fullscreen')
    const before = modes.away.value
    modes.set('a', 'fullscreen')
    expect(modes.away.value).toBe(before)
  })
})
