import { describe, expect, it } from 'vitest'
import { PendingSignIns, SIGN_IN_LIFETIME_MS } from './pending-sign-ins.js'

describe('PendingSignIns', () => {
  it('gives a sign-in to the callback with its state once, and never after its lifetime', () => {
    let now = 1_000
    const pending = new PendingSignIns(() => now)
    pending.add('s1', 'notes', 'v1')
    expect(pending.take('other')).toBeUndefined()
    expect(pending.take('s1')).toMatchObject({ server: 'notes', verifier: 'v1' })
    expect(pending.take('s1')).toBeUndefined()

    pending.add('s2', 'notes', 'v2')
    now += SIGN_IN_LIFETIME_MS
    expect(pending.take('s2')).toBeUndefined()
  })

  it('replaces a server’s earlier sign-in with its new one', () => {
    const pending = new PendingSignIns(() => 0)
    pending.add('old', 'notes', 'v1')
    pending.add('new', 'notes', 'v2')
    expect(pending.take('old')).toBeUndefined()
    expect(pending.take('new')?.verifier).toBe('v2')
  })

  it('tells a wait that begins after the browser came back how the sign-in ended', async () => {
    const pending = new PendingSignIns(() => 0)
    const signal = new AbortController().signal
    expect(await pending.wait('notes', signal, 50_000)).toBe('none')
    pending.add('s', 'notes', 'v')
    const early = pending.wait('notes', signal, 50_000)
    pending.take('s')
    const outcome = { server: 'notes', pending: false, status: 'ready', error: null } as const
    pending.settle(outcome)
    expect(await early).toEqual(outcome)
    expect(await pending.wait('notes', signal, 50_000)).toEqual(outcome)
  })

  it('answers `pending` after the longest wait, and `expired` once the lifetime passed', async () => {
    let now = 0
    const pending = new PendingSignIns(() => now)
    pending.add('s', 'notes', 'v')
    const signal = new AbortController().signal
    expect(await pending.wait('notes', signal, 0)).toBe('pending')
    now = SIGN_IN_LIFETIME_MS
    expect(await pending.wait('notes', signal, 50_000)).toBe('expired')
  })
})
