// Runs jobs one at a time in a Web Worker, each under a time limit. Ending the worker is the only
// way to stop synchronous work such as a parser or a regular expression, so a job over its limit
// ends it and the next job gets a fresh one; the page's main thread never runs the work itself.

/** How a job ended; `value` is the worker's answer. */
export type JobOutcome<R> = { ok: true; value: R } | { ok: false; reason: 'timeout' | 'failed' }

/** The worker has not said it is ready in this long: it is taken as unable to start. */
const START_LIMIT_MS = 10_000

interface Job<Q, R> {
  request: Q
  /** null: no limit (someone asked for this work and waits for it). */
  limitMs: number | null
  resolve: (outcome: JobOutcome<R> | undefined) => void
}

export class TimedWorker<Q, R> {
  readonly #create: () => Worker
  #worker: Worker | undefined
  #ready = false
  #broken = false
  #queue: Job<Q, R>[] = []
  #running: Job<Q, R> | undefined
  #timer: ReturnType<typeof setTimeout> | undefined

  /** `create` must call `new Worker(new URL(…, import.meta.url), { type: 'module' })`. */
  constructor(create: () => Worker) {
    this.#create = create
  }

  /** Starts the worker ahead of the first job, so that job does not wait for it to load. */
  warm(): void {
    if (this.#broken) return
    try {
      this.#ensureWorker()
    } catch {
      // #ensureWorker has marked the worker broken; jobs will say so.
    }
  }

  /**
   * Runs `request` in the worker. Resolves undefined if `signal` aborts first; an aborted job
   * without a limit also ends the worker, since nobody waits for its work any more.
   */
  run(
    request: Q,
    limitMs: number | null,
    signal?: AbortSignal,
  ): Promise<JobOutcome<R> | undefined> {
    if (this.#broken) return Promise.resolve({ ok: false, reason: 'failed' })
    if (signal?.aborted === true) return Promise.resolve(undefined)
    return new Promise((resolve) => {
      const job: Job<Q, R> = { request, limitMs, resolve }
      signal?.addEventListener('abort', () => this.#abort(job), { once: true })
      this.#queue.push(job)
      this.#next()
    })
  }

  #abort(job: Job<Q, R>): void {
    const queued = this.#queue.indexOf(job)
    if (queued >= 0) {
      this.#queue.splice(queued, 1)
      job.resolve(undefined)
      return
    }
    if (this.#running === job && job.limitMs === null) {
      this.#finish(undefined)
      this.#restart()
    }
  }

  #ensureWorker(): Worker {
    if (this.#worker !== undefined) return this.#worker
    let worker: Worker
    try {
      worker = this.#create()
    } catch {
      this.#fail()
      throw new Error('the worker could not be created')
    }
    this.#worker = worker
    this.#ready = false
    const startTimer = setTimeout(() => this.#fail(), START_LIMIT_MS)
    worker.onmessage = (event: MessageEvent) => {
      if (!this.#ready) {
        clearTimeout(startTimer)
        this.#ready = true
        this.#next()
        return
      }
      this.#finish({ ok: true, value: event.data as R })
      this.#next()
    }
    worker.onerror = () => {
      clearTimeout(startTimer)
      // A worker that fails before it is ready cannot load; one that fails on a job lost that job.
      if (!this.#ready) return this.#fail()
      this.#finish({ ok: false, reason: 'failed' })
      this.#restart()
    }
    return worker
  }

  #next(): void {
    if (this.#running !== undefined || this.#broken) return
    const job = this.#queue.shift()
    if (job === undefined) return
    let worker: Worker
    try {
      worker = this.#ensureWorker()
    } catch {
      return
    }
    if (!this.#ready) {
      this.#queue.unshift(job)
      return
    }
    this.#running = job
    if (job.limitMs !== null) {
      this.#timer = setTimeout(() => {
        this.#finish({ ok: false, reason: 'timeout' })
        this.#restart()
      }, job.limitMs)
    }
    worker.postMessage(job.request)
  }

  #finish(outcome: JobOutcome<R> | undefined): void {
    clearTimeout(this.#timer)
    const job = this.#running
    this.#running = undefined
    job?.resolve(outcome)
  }

  #restart(): void {
    this.#worker?.terminate()
    this.#worker = undefined
    this.#ready = false
    this.#next()
  }

  /** The worker cannot start: every job, now and later, fails. */
  #fail(): void {
    this.#broken = true
    this.#worker?.terminate()
    this.#worker = undefined
    this.#finish({ ok: false, reason: 'failed' })
    for (const job of this.#queue.splice(0)) job.resolve({ ok: false, reason: 'failed' })
  }
}
