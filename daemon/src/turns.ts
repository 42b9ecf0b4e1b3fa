// Work that comes in bursts (a hundred calls at once, a server's read of a hundred messages) is
// done a bounded amount per turn of the event loop. What the daemon was already waiting on (a
// stored batch of events to deliver, a socket to read) gets its turn in between, so a burst does
// not hold back events already stored for as long as the whole burst takes. Work runs in the
// order it came, and the burst as a whole takes no longer.

/** Pieces of work that start in one turn of the event loop; more wait for a later turn. */
export const WORK_PER_TURN = 8
/**
 * Work that may wait at most. Past it, what waits is done at once, then the new work: a source
 * faster than the daemon (a server flooding progress) is held back by the daemon being busy, as
 * its pipe fills, instead of by a queue that grows without end.
 */
export const MAX_WAITING = 1_000

export class Turns {
  private used = 0
  private readonly waiting: (() => void)[] = []
  private turnPending = false

  constructor(
    private readonly perTurn = WORK_PER_TURN,
    private readonly maxWaiting = MAX_WAITING,
  ) {}

  /**
   * Runs `work` now while this turn has room, else in a later turn, after all work given before
   * it. `work` must not throw: a later turn has no caller to throw to.
   */
  run(work: () => void): void {
    if (this.take()) work()
    else if (this.waiting.length < this.maxWaiting) this.waiting.push(work)
    else {
      for (const waited of this.waiting.splice(0)) waited()
      work()
    }
  }

  /** Undefined while this turn has room; else a promise that resolves in the caller's turn. */
  wait(): Promise<void> | undefined {
    if (this.take()) return undefined
    return new Promise((resolve) => this.waiting.push(resolve))
  }

  private take(): boolean {
    this.nextTurn()
    if (this.used >= this.perTurn || this.waiting.length > 0) return false
    this.used++
    return true
  }

  /** At the next turn the count starts again, and the work waiting first runs. */
  private nextTurn(): void {
    if (this.turnPending) return
    this.turnPending = true
    setImmediate(() => {
      this.turnPending = false
      const now = this.waiting.splice(0, this.perTurn)
      this.used = now.length
      // A turn that ran work is followed by one that counts from zero again.
      if (this.used > 0) this.nextTurn()
      for (const work of now) work()
    })
  }
}

/** The daemon's one event loop, shared by every source of bursts. */
export const loopTurns = new Turns()
