// What the daemon has built, as a stack of disposers: start-up pushes one per step, and a failed
// start or a shutdown releases everything in reverse order, each step once.

export type Disposer = () => Promise<void> | void

export class DisposerStack {
  private readonly disposers: Disposer[] = []
  private disposing: Promise<void> | undefined

  /** Registers `dispose` for what the step just built; it runs before those pushed earlier. */
  defer(dispose: Disposer): void {
    if (this.disposing !== undefined) throw new Error('the stack is already disposed')
    this.disposers.push(dispose)
  }

  /**
   * Runs every disposer, newest first. One that fails does not stop the others: a lock left
   * behind because a listener would not close is worse than a listener closing late.
   */
  dispose(onError: (error: unknown) => void): Promise<void> {
    this.disposing ??= (async () => {
      for (let next = this.disposers.pop(); next !== undefined; next = this.disposers.pop()) {
        try {
          await next()
        } catch (error) {
          onError(error)
        }
      }
    })()
    return this.disposing
  }
}
