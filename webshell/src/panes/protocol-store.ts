// One server's protocol trace for the Protocol pane: what the daemon kept, then each message as it
// passes (through the stream's `follow_server`), paired into request/response rows.

import { signal, type ReadonlySignal } from '@preact/signals'
import type { TraceEntry, TraceResponse } from '../../../daemon/src/protocol/index.js'
import { serverPath, type PaneClient } from './pane-client.js'
import { createTraceRows, type TraceRow } from './trace-rows.js'

export type FeedState =
  | { state: 'loading' }
  | { state: 'live' }
  | { state: 'failed'; message: string }

export interface ProtocolStore {
  readonly server: string
  readonly rows: ReadonlySignal<readonly TraceRow[]>
  readonly feed: ReadonlySignal<FeedState>
  /** Shows only rows from here on (the daemon's trace is untouched). */
  clear(): void
  /** Stops following the server. */
  dispose(): void
}

export function createProtocolStore(client: PaneClient, server: string): ProtocolStore {
  let trace = createTraceRows()
  const rows = signal<readonly TraceRow[]>([])
  const feed = signal<FeedState>({ state: 'loading' })
  let loaded = false
  /** Live entries that came while the kept ones were still loading. */
  let early: TraceEntry[] = []
  let disposed = false
  const take = (entries: readonly TraceEntry[]) => {
    trace.add(entries)
    rows.value = trace.rows
  }
  const load = async () => {
    loaded = false
    try {
      const kept = await client.request<TraceResponse>(serverPath(server, '/trace'))
      if (disposed) return
      // Fewer messages than were shown: the daemon started again, and its seqs with it.
      const last = kept.entries.at(-1)?.seq ?? 0
      if (last < trace.lastSeq) trace = createTraceRows()
      take(kept.entries)
      take(early)
      early = []
      loaded = true
      feed.value = { state: 'live' }
    } catch (error) {
      if (!disposed) feed.value = { state: 'failed', message: (error as Error).message }
    }
  }
  // Following starts first, so nothing passes between the kept entries and the live ones; the
  // overlap is dropped by seq.
  const stop = client.follow(server, ['trace'], {
    trace(entry) {
      if (loaded) take([entry])
      else early.push(entry)
    },
    resumed: () => void load(),
  })
  void load()
  return {
    server,
    rows,
    feed,
    clear() {
      const last = trace.lastSeq
      trace = createTraceRows()
      trace.lastSeq = last
      rows.value = trace.rows
    },
    dispose() {
      disposed = true
      stop()
    },
  }
}
