// The Protocol pane: one server's JSON-RPC traffic, newest first, each request with its answer and
// latency on one line, expanding to the JSON of both. Messages are untrusted: shown as text only.

import type { JSX } from 'preact'
import { useEffect, useMemo } from 'preact/hooks'
import type { TraceEntry } from '../../../daemon/src/protocol/index.js'
import { toJson } from '../result/content.js'
import { PlainText } from '../result/PlainText.js'
import type { PaneProps } from './pane-props.js'
import { usePaneClient } from './use-pane-client.js'
import { createProtocolStore, type ProtocolStore } from './protocol-store.js'
import { latencyOf, type TraceRow } from './trace-rows.js'
import './panes.css'

export function ProtocolPane({ server }: PaneProps): JSX.Element | null {
  const client = usePaneClient()
  const store = useMemo(
    () => (server === null ? null : createProtocolStore(client, server)),
    [client, server],
  )
  useEffect(() => () => store?.dispose(), [store])
  return store === null ? null : <ProtocolView store={store} />
}

function ProtocolView({ store }: { store: ProtocolStore }): JSX.Element {
  const rows = store.rows.value
  const feed = store.feed.value
  const newestFirst = useMemo(() => [...rows].reverse(), [rows])
  return (
    <section
      class="server-pane"
      data-testid="protocol-pane"
      aria-label={`Protocol of ${store.server}`}
    >
      <div class="pane-head">
        <h2>Protocol</h2>
        <span class="pane-count" data-testid="trace-count">
          {rows.length === 1 ? '1 message' : `${rows.length} messages`}
        </span>
        <button type="button" onClick={() => store.clear()}>
          Clear
        </button>
      </div>
      {feed.state === 'failed' && (
        <p class="error-text" role="alert">
          The trace could not be read: {feed.message}
        </p>
      )}
      {feed.state === 'loading' && <p class="pane-empty">Loading the trace…</p>}
      {feed.state === 'live' && rows.length === 0 && (
        <p class="pane-empty">No messages yet. Call a tool of this server to see its traffic.</p>
      )}
      <ol class="trace" data-testid="trace">
        {newestFirst.map((row) => (
          <TraceItem key={row.key} row={row} />
        ))}
      </ol>
    </section>
  )
}

const ARROWS = { out: '→', in: '←' } as const

function TraceItem({ row }: { row: TraceRow }): JSX.Element {
  const latency = latencyOf(row)
  const failed = row.answer?.kind === 'error'
  const waiting = row.kind === 'request' && row.answer === null
  return (
    <li
      class={failed ? 'trace-row trace-failed' : 'trace-row'}
      data-testid="trace-row"
      data-method={row.method ?? ''}
      data-kind={row.kind}
    >
      <details>
        <summary>
          <span
            class="trace-direction"
            title={row.direction === 'out' ? 'Ferry to the server' : 'The server to Ferry'}
          >
            {ARROWS[row.direction]}
          </span>
          <code class="trace-method">{row.method ?? '(no method)'}</code>
          {row.id !== null && <span class="trace-id">#{String(row.id)}</span>}
          <span class="trace-kind">{describe(row)}</span>
          {latency !== null && (
            <span class="trace-latency" data-testid="latency">
              {formatMs(latency)}
            </span>
          )}
          {waiting && <span class="trace-latency">waiting…</span>}
          <time class="trace-time" dateTime={(row.request ?? row.answer)?.time}>
            {clock((row.request ?? row.answer)?.time)}
          </time>
        </summary>
        {row.request !== null && <Message label="Request" entry={row.request} />}
        {row.answer !== null && <Message label={label(row.answer)} entry={row.answer} />}
      </details>
    </li>
  )
}

function Message({ label, entry }: { label: string; entry: TraceEntry }): JSX.Element {
  return (
    <div class="trace-message" data-testid={`trace-${entry.kind}`}>
      <p class="trace-meta">
        {label}, {entry.bytes.toLocaleString('en-US')} bytes, {entry.time}
      </p>
      <PlainText text={toJson(entry.message)} />
    </div>
  )
}

function describe(row: TraceRow): string {
  if (row.kind === 'notification') return 'notification'
  if (row.kind === 'response') return row.answer?.kind === 'error' ? 'error' : 'response'
  if (row.answer === null) return 'request'
  return row.answer.kind === 'error' ? 'request, error' : 'request, response'
}

function label(entry: TraceEntry): string {
  return entry.kind === 'error'
    ? 'Error'
    : entry.kind === 'notification'
      ? 'Notification'
      : 'Response'
}

function clock(time: string | undefined): string {
  if (time === undefined) return ''
  const date = new Date(time)
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleTimeString('en-GB', { hour12: false })
}

/** Whole milliseconds, with a tenth under 10 ms where the difference shows. */
function formatMs(ms: number): string {
  const shown = ms < 10 ? Math.round(ms * 10) / 10 : Math.round(ms)
  return `${shown.toLocaleString('en-US')} ms`
}
