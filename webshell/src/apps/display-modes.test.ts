// Which App is out of the transcript: one at a time, the last to ask.

import { describe, expect, it } from 'vitest'
import { appMode, DisplayModes } from './display-modes.js'

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

describe('maximizing an App', () => {
  it('is offered only to the Apps it was given to, and tells the App it is inline', () => {
    const modes = new DisplayModes()
    modes.offerMaximize('a', true)
    modes.offerMaximize('b', true)
    modes.offerMaximize('b', false)
    expect([...modes.maximizable.value]).toEqual(['a'])
    modes.set('a', 'maximized')
    expect(modes.modeOf('a')).toBe('maximized')
    expect(appMode(modes.modeOf('a'))).toBe('inline')
    expect(appMode('fullscreen')).toBe('fullscreen')
    // An App asking for full screen takes the place, as it would from any other.
    modes.set('c', 'fullscreen')
    expect(modes.modeOf('a')).toBe('inline')
  })
})
