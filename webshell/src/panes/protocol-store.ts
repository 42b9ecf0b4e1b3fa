// The Protocol pane's traffic: each followed server's kept trace, then each message as it passes
// (through the stream's `follow_server`), paired into request/response rows and merged over the
// servers by time; with what the person filters, pins and replays.

import { signal, type ReadonlySignal, type Signal } from '@preact/signals'
import type {
  ReplayResponse,
  TraceEntry,
  TraceResponse,
} from '../../../daemon/src/protocol/index.js'
import { serverPath, type PaneClient } from './pane-client.js'
import { NO_FILTER, type ServerRow, type TraceFilter } from './trace-filter.js'
import { createTraceRows, type TraceRow, type TraceRows } from './trace-rows.js'

export type FeedState =
  | { state: 'loading' }
  | { state: 'live' }
  | { state: 'failed'; message: string }

export interface ProtocolStore {
  /** The servers followed, in the navigation's order. */
  readonly servers: readonly string[]
  /** Every followed server's rows, oldest first. */
  readonly rows: ReadonlySignal<readonly ServerRow[]>
  readonly feed: ReadonlySignal<FeedState>
  readonly filter: Signal<TraceFilter>
  /** Keys of the rows kept on top whatever the filter. */
  readonly pinned: ReadonlySignal<ReadonlySet<string>>
  togglePin(key: string): void
  /** Sends the row's request again (with `params` instead of its own, when given). */
  replay(item: ServerRow, params?: unknown): Promise<ReplayResponse>
  /** Shows only rows from here on (the daemon's trace is untouched). */
  clear(): void
  /** Stops following. */
  dispose(): void
}

interface Followed {
  server: string
  trace: TraceRows
  /** The server's rows as last merged, so an unchanged server is not wrapped again. */
  rows: readonly TraceRow[]
  wrapped: ServerRow[]
  feed: FeedState
  stop: () => void
}

export function createProtocolStore(client: PaneClient, servers: readonly string[]): ProtocolStore {
  const rows = signal<readonly ServerRow[]>([])
  const feed = signal<FeedState>({ state: 'loading' })
  const filter = signal<TraceFilter>(NO_FILTER)
  const pinned = signal<ReadonlySet<string>>(new Set())
  let disposed = false
  const followed: Followed[] = []

  const merge = () => {
    for (const one of followed) {
      if (one.rows === one.trace.rows) continue
      one.rows = one.trace.rows
      one.wrapped = one.rows.map((row) => ({
        server: one.server,
        row,
        key: `${one.server}:${row.key}`,
      }))
    }
    const all = followed.flatMap((one) => one.wrapped)
    if (followed.length > 1) all.sort((a, b) => timeOf(a).localeCompare(timeOf(b)))
    rows.value = all
    const failed = followed.find((one) => one.feed.state === 'failed')
    feed.value =
      failed !== undefined && failed.feed.state === 'failed'
        ? {
            state: 'failed',
            message:
              servers.length > 1 ? `${failed.server}: ${failed.feed.message}` : failed.feed.message,
          }
        : followed.some((one) => one.feed.state === 'loading')
          ? { state: 'loading' }
          : { state: 'live' }
  }

  for (const server of servers) {
    const one: Followed = {
      server,
      trace: createTraceRows(),
      rows: [],
      wrapped: [],
      feed: { state: 'loading' },
      stop: () => {},
    }
    followed.push(one)
    let loaded = false
    /** Live entries that came while the kept ones were still loading. */
    let early: TraceEntry[] = []
    const take = (entries: readonly TraceEntry[]) => {
      one.trace.add(entries)
      merge()
    }
    const load = async () => {
      loaded = false
      try {
        const kept = await client.request<TraceResponse>(serverPath(server, '/trace'))
        if (disposed) return
        // Fewer messages than were shown: the daemon started again, and its seqs with it.
        const last = kept.entries.at(-1)?.seq ?? 0
        if (last < one.trace.lastSeq) one.trace = createTraceRows()
        one.trace.add(kept.entries)
        one.trace.add(early)
        early = []
        loaded = true
        one.feed = { state: 'live' }
        merge()
      } catch (error) {
        if (disposed) return
        one.feed = { state: 'failed', message: (error as Error).message }
        merge()
      }
    }
    // Following starts first, so nothing passes between the kept entries and the live ones; the
    // overlap is dropped by seq.
    one.stop = client.follow(server, ['trace'], {
      trace(entry) {
        if (loaded) take([entry])
        else early.push(entry)
      },
      resumed: () => void load(),
    })
    void load()
  }
  if (servers.length === 0) feed.value = { state: 'live' }

  return {
    servers,
    rows,
    feed,
    filter,
    pinned,
    togglePin(key) {
      const next = new Set(pinned.value)
      if (!next.delete(key)) next.add(key)
      pinned.value = next
    },
    replay(item, params) {
      const request = item.row.request
      if (request === null) return Promise.reject(new Error('this row has no request to replay'))
      return client.request<ReplayResponse>(serverPath(item.server, '/replay'), 'POST', {
        seq: request.seq,
        ...(params === undefined ? {} : { params }),
        ...(client.session() === undefined ? {} : { session: client.session() }),
        client: client.identity,
      })
    },
    clear() {
      for (const one of followed) {
        const last = one.trace.lastSeq
        one.trace = createTraceRows()
        one.trace.lastSeq = last
      }
      pinned.value = new Set()
      merge()
    },
    dispose() {
      disposed = true
      for (const one of followed) one.stop()
    },
  }
}

function timeOf(item: ServerRow): string {
  return (item.row.request ?? item.row.answer)?.time ?? ''
}
