// The Logs pane: one server's stderr and MCP log messages as they come, newest at the bottom, and
// the level the server is asked to log at. Log data is untrusted: shown as text only.

import type { JSX } from 'preact'
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks'
import type {
  LogLevel,
  LogLevelResponse,
  ServerLogLine,
} from '../../../daemon/src/protocol/index.js'
import { clock } from '../format.js'
import { toJson } from '../result/content.js'
import { clip } from '../result/media.js'
import { createLogsStore, type LogsStore } from './logs-store.js'
import type { PaneProps } from './pane-props.js'
import { usePaneClient } from './use-pane-client.js'
import './panes.css'

/** A longer line is cut: one line must not flood the pane. */
const MAX_LOG_CHARS = 10_000

/** How the level reaches the server, in words. */
const DELIVERY: Record<LogLevelResponse['delivery'], string> = {
  setLevel: 'sent to the server',
  'request-meta': 'sent with each request',
  filter: 'the server has no levels: Ferry drops what is below',
}

export const LOG_LEVELS: readonly LogLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
]

export function LogsPane({ server }: PaneProps): JSX.Element | null {
  const client = usePaneClient()
  const store = useMemo(
    () => (server === null ? null : createLogsStore(client, server)),
    [client, server],
  )
  useEffect(() => () => store?.dispose(), [store])
  return store === null ? null : <LogsView store={store} />
}

function LogsView({ store }: { store: LogsStore }): JSX.Element {
  const lines = store.lines.value
  const feed = store.feed.value
  const level = store.level.value
  const [error, setError] = useState<string | null>(null)
  const list = useRef<HTMLOListElement>(null)
  // Follows new lines while the reader is at the bottom.
  const atBottom = useRef(true)
  useLayoutEffect(() => {
    const element = list.current
    if (element !== null && atBottom.current) element.scrollTop = element.scrollHeight
  }, [lines])
  return (
    <section class="server-pane" data-testid="logs-pane" aria-label={`Logs of ${store.server}`}>
      <div class="pane-head">
        <h2>Logs</h2>
        <label class="pane-level">
          Log level
          <select
            data-testid="log-level"
            data-level={level?.level ?? ''}
            value={level?.level ?? ''}
            onChange={(event) => {
              const chosen = (event.currentTarget as HTMLSelectElement).value as LogLevel
              setError(null)
              store
                .setLevel(chosen)
                .catch((failure: unknown) => setError((failure as Error).message))
            }}
          >
            {level === null && <option value="">…</option>}
            {LOG_LEVELS.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        {level !== null && (
          <span class="pane-count" data-testid="log-delivery">
            {DELIVERY[level.delivery]}
          </span>
        )}
        <button type="button" onClick={() => store.clear()}>
          Clear
        </button>
      </div>
      {error !== null && (
        <p class="error-text" role="alert" data-testid="log-level-error">
          {error}
        </p>
      )}
      {feed.state === 'failed' && (
        <p class="error-text" role="alert">
          The logs could not be read: {feed.message}
        </p>
      )}
      {feed.state === 'loading' && <p class="pane-empty">Loading the logs…</p>}
      {feed.state === 'live' && lines.length === 0 && <p class="pane-empty">Nothing logged yet.</p>}
      <ol
        class="log-lines"
        data-testid="log-lines"
        ref={list}
        onScroll={(event) => {
          const element = event.currentTarget
          atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < 8
        }}
      >
        {lines.map((line) => (
          <LogLine key={line.seq} line={line} />
        ))}
      </ol>
    </section>
  )
}

function LogLine({ line }: { line: ServerLogLine }): JSX.Element {
  if (line.source === 'stderr') {
    return (
      <li class="log-line log-stderr" data-testid="log-line" data-source="stderr">
        <time class="log-time" dateTime={line.time}>
          {clock(line.time)}
        </time>
        <span class="log-source">stderr</span>
        <span class="log-text">{clip(line.text, MAX_LOG_CHARS)}</span>
      </li>
    )
  }
  return (
    <li
      class={`log-line log-${line.level}`}
      data-testid="log-line"
      data-source="mcp"
      data-level={line.level}
    >
      <time class="log-time" dateTime={line.time}>
        {clock(line.time)}
      </time>
      <span class="log-source">{line.level}</span>
      {line.logger !== null && <span class="log-logger">{clip(line.logger, 60)}</span>}
      <span class="log-text">
        {clip(typeof line.data === 'string' ? line.data : toJson(line.data), MAX_LOG_CHARS)}
      </span>
    </li>
  )
}
