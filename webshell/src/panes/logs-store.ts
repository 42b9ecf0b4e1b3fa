// The Logs pane's state for one server: its stderr and MCP log messages, what the daemon kept and
// then each line as it comes (through the stream's `follow_server`), one each by seq, and the
// level the server logs at.

import { signal, type ReadonlySignal } from '@preact/signals'
import type {
  LogLevel,
  LogLevelResponse,
  LogsResponse,
  ServerLogLine,
} from '../../../daemon/src/protocol/index.js'
import { serverPath, type PaneClient } from './pane-client.js'
import type { FeedState } from './protocol-store.js'

/** Lines kept in the pane; older ones scroll away. */
export const MAX_LOG_LINES = 2000

export interface LogsStore {
  readonly server: string
  readonly lines: ReadonlySignal<readonly ServerLogLine[]>
  readonly feed: ReadonlySignal<FeedState>
  /** The server's level as the daemon last said it; null until it has. */
  readonly level: ReadonlySignal<LogLevelResponse | null>
  setLevel(level: LogLevel): Promise<void>
  /** Shows only lines from here on (the daemon's are untouched). */
  clear(): void
  dispose(): void
}

export function createLogsStore(client: PaneClient, server: string): LogsStore {
  const lines = signal<readonly ServerLogLine[]>([])
  const feed = signal<FeedState>({ state: 'loading' })
  const level = signal<LogLevelResponse | null>(null)
  let lastSeq = 0
  let loaded = false
  let early: ServerLogLine[] = []
  let disposed = false
  const take = (more: readonly ServerLogLine[]) => {
    const fresh = more.filter((line) => line.seq > lastSeq)
    if (fresh.length === 0) return
    lastSeq = fresh.at(-1)?.seq ?? lastSeq
    const next = [...lines.peek(), ...fresh]
    lines.value = next.length > MAX_LOG_LINES ? next.slice(next.length - MAX_LOG_LINES) : next
  }
  const load = async () => {
    loaded = false
    try {
      const kept = await client.request<LogsResponse>(serverPath(server, '/logs?after=0'))
      if (disposed) return
      // Fewer lines than were shown: the daemon started again, and its seqs with it.
      if ((kept.entries.at(-1)?.seq ?? 0) < lastSeq) {
        lastSeq = 0
        lines.value = []
      }
      take(kept.entries)
      take(early.sort((a, b) => a.seq - b.seq))
      early = []
      loaded = true
      feed.value = { state: 'live' }
    } catch (error) {
      if (!disposed) feed.value = { state: 'failed', message: (error as Error).message }
    }
  }
  // Following starts first, so nothing passes between the kept lines and the live ones.
  const stop = client.follow(server, ['logs'], {
    log(line) {
      if (loaded) take([line])
      else early.push(line)
    },
    resumed: () => void load(),
  })
  void load()
  client.request<LogLevelResponse>(serverPath(server, '/log-level')).then(
    (answer) => {
      if (level.peek() === null) level.value = answer
    },
    // Without it the selector says nothing about the level; choosing one still works.
    () => undefined,
  )
  return {
    server,
    lines,
    feed,
    level,
    async setLevel(next) {
      level.value = await client.request<LogLevelResponse>(
        serverPath(server, '/log-level'),
        'PUT',
        { level: next },
      )
    },
    clear() {
      lines.value = []
    },
    dispose() {
      disposed = true
      stop()
    },
  }
}
