// The Logs pane's state for one server: its stderr and MCP log messages, what the daemon kept and
// then each line as it comes (through the stream's `follow_server`), and the level the server is
// asked to log at.

import { signal, type ReadonlySignal } from '@preact/signals'
import type { LogLevel, ServerLogLine } from '../../../daemon/src/protocol/index.js'
import { serverPath, type PaneClient } from './pane-client.js'
import type { FeedState } from './protocol-store.js'

/** Lines kept in the pane; older ones scroll away. */
export const MAX_LOG_LINES = 2000

export interface LogsStore {
  readonly server: string
  readonly lines: ReadonlySignal<readonly ServerLogLine[]>
  readonly feed: ReadonlySignal<FeedState>
  /** The level last set from here; null until one is. */
  readonly level: ReadonlySignal<LogLevel | null>
  setLevel(level: LogLevel): Promise<void>
  clear(): void
  dispose(): void
}

/** What `GET /servers/{name}/logs` holds: plain stderr lines, or lines with their source. */
interface KeptLogs {
  lines: (string | ServerLogLine)[]
}

export function createLogsStore(client: PaneClient, server: string): LogsStore {
  const lines = signal<readonly ServerLogLine[]>([])
  const feed = signal<FeedState>({ state: 'loading' })
  const level = signal<LogLevel | null>(null)
  let loaded = false
  let early: ServerLogLine[] = []
  let disposed = false
  const take = (more: readonly ServerLogLine[], base = lines.peek()) => {
    const next = [...base, ...more]
    lines.value = next.length > MAX_LOG_LINES ? next.slice(next.length - MAX_LOG_LINES) : next
  }
  const stop = client.follow(server, ['logs'], {
    log(line) {
      if (loaded) take([line])
      else early.push(line)
    },
    resumed: () => void load(),
  })
  async function load() {
    loaded = false
    try {
      const kept = await client.request<KeptLogs>(serverPath(server, '/logs'))
      if (disposed) return
      const history = kept.lines.map((line): ServerLogLine =>
        typeof line === 'string' ? { source: 'stderr', time: '', text: line } : line,
      )
      // Lines that came live while the kept ones loaded may be among them: each is shown once.
      const seen = new Set(history.map((line) => JSON.stringify(line)))
      // What the daemon kept replaces what was shown, which it includes.
      take([...history, ...early.filter((line) => !seen.has(JSON.stringify(line)))], [])
      early = []
      loaded = true
      feed.value = { state: 'live' }
    } catch (error) {
      if (!disposed) feed.value = { state: 'failed', message: (error as Error).message }
    }
  }
  void load()
  return {
    server,
    lines,
    feed,
    level,
    async setLevel(next) {
      await client.request(serverPath(server, '/log-level'), 'PUT', { level: next })
      level.value = next
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
