import { describe, expect, it } from 'vitest'
import { Turns } from './turns.js'

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

describe('Turns', () => {
  it('runs a turn’s share of a burst at once and the rest in later turns, in order', async () => {
    const turns = new Turns(3)
    const ran: number[] = []
    for (let i = 0; i < 8; i++) turns.run(() => ran.push(i))
    expect(ran).toEqual([0, 1, 2])
    // The queue's turn was asked for before this one, so it comes first.
    await nextTurn()
    expect(ran).toEqual([0, 1, 2, 3, 4, 5])
    await nextTurn()
    expect(ran).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
  })

  it('lets what became ready meanwhile run between two shares of a burst', async () => {
    const turns = new Turns(2)
    const order: string[] = []
    for (let i = 0; i < 6; i++) turns.run(() => order.push(`work ${i}`))
    // Ready after the burst came in, like a stored batch of events waiting to be delivered.
    setImmediate(() => order.push('ready'))
    await nextTurn()
    await nextTurn()
    expect(order).toEqual(['work 0', 'work 1', 'work 2', 'work 3', 'ready', 'work 4', 'work 5'])
  })

  it('does not let work that arrives later pass work already waiting', async () => {
    const turns = new Turns(1)
    const order: string[] = []
    turns.run(() => order.push('a'))
    turns.run(() => order.push('b'))
    const waited = turns.wait()
    expect(waited).toBeInstanceOf(Promise)
    void waited?.then(() => order.push('c'))
    await nextTurn()
    await nextTurn()
    await nextTurn()
    expect(order).toEqual(['a', 'b', 'c'])
  })

  it('does what waits at once, in order, rather than let more than its bound wait', () => {
    const turns = new Turns(1, 3)
    const ran: number[] = []
    for (let i = 0; i < 4; i++) turns.run(() => ran.push(i))
    expect(ran).toEqual([0])
    // A source that keeps coming within the turn (a flood) is held back by the work done now.
    turns.run(() => ran.push(4))
    expect(ran).toEqual([0, 1, 2, 3, 4])
  })

  it('counts from zero again once a turn has passed', async () => {
    const turns = new Turns(2)
    turns.run(() => {})
    turns.run(() => {})
    await nextTurn()
    await nextTurn()
    const ran: number[] = []
    turns.run(() => ran.push(1))
    expect(turns.wait()).toBeUndefined()
    expect(ran).toEqual([1])
  })
})
