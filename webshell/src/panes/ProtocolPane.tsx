// The Protocol pane: JSON-RPC traffic of the server picked (or of every server), newest first,
// each request with its answer and latency on one line, expanding to the JSON of both; searched
// and filtered, pinned, replayed and exported as JSON lines. Messages are untrusted: text only.

import type { JSX } from 'preact'
import { useEffect, useMemo } from 'preact/hooks'
import type { TraceEntry } from '../../../daemon/src/protocol/index.js'
import { replayRefusal } from '../../../daemon/src/protocol/replay-methods.js'
import { clock } from '../format.js'
import { toJson } from '../result/content.js'
import { PlainText } from '../result/PlainText.js'
import { useShell } from '../store/shell-context.js'
import type { PaneProps } from './pane-props.js'
import { usePaneClient } from './use-pane-client.js'
import { createProtocolStore, type ProtocolStore } from './protocol-store.js'
import { ReplayControls } from './ReplayControls.js'
import { TraceToolbar } from './TraceToolbar.js'
import { isFailed, shownRows, type ServerRow } from './trace-filter.js'
import { latencyOf, type TraceRow } from './trace-rows.js'
import './panes.css'

/** Servers whose traffic can be followed: every one but those never started. */
const UNSTARTED = new Set(['invalid', 'disabled', 'awaiting_approval'])

export function ProtocolPane({ server }: PaneProps): JSX.Element | null {
  const client = usePaneClient()
  const { store: shell } = useShell()
  const names =
    server !== null
      ? server
      : (shell.servers.value ?? [])
          .filter((info) => !UNSTARTED.has(info.status))
          .map((info) => info.name)
          .join('\n')
  const store = useMemo(
    () => createProtocolStore(client, names === '' ? [] : names.split('\n')),
    [client, names],
  )
  useEffect(() => () => store.dispose(), [store])
  return <ProtocolView store={store} scope={server} />
}

function ProtocolView({
  store,
  scope,
}: {
  store: ProtocolStore
  scope: string | null
}): JSX.Element {
  const rows = store.rows.value
  const feed = store.feed.value
  const filter = store.filter.value
  const pinned = store.pinned.value
  const shown = useMemo(() => shownRows(rows, filter, pinned), [rows, filter, pinned])
  const several = store.servers.length > 1
  return (
    <section
      class="server-pane"
      data-testid="protocol-pane"
      aria-label={scope === null ? 'Protocol of every server' : `Protocol of ${scope}`}
    >
      <TraceToolbar store={store} rows={rows} shown={shown} scope={scope} />
      {feed.state === 'failed' && (
        <p class="error-text" role="alert">
          The trace could not be read: {feed.message}
        </p>
      )}
      {feed.state === 'loading' && <p class="pane-empty">Loading the trace…</p>}
      {feed.state === 'live' && rows.length === 0 && (
        <p class="pane-empty">
          No messages yet. Call a tool of {scope === null ? 'a server' : 'this server'} to see its
          traffic.
        </p>
      )}
      {rows.length > 0 && shown.length === 0 && (
        <p class="pane-empty">No message matches the search and filters.</p>
      )}
      <ol class="trace" data-testid="trace">
        {shown.map((item) => (
          <TraceItem
            key={item.key}
            item={item}
            store={store}
            showServer={several}
            pinned={pinned.has(item.key)}
          />
        ))}
      </ol>
    </section>
  )
}

const ARROWS = { out: '→', in: '←' } as const

function TraceItem({
  item,
  store,
  showServer,
  pinned,
}: {
  item: ServerRow
  store: ProtocolStore
  showServer: boolean
  pinned: boolean
}): JSX.Element {
  const { row, server } = item
  const latency = latencyOf(row)
  const waiting = row.kind === 'request' && row.answer === null
  const replayable = row.request !== null && replayRefusal(row.request) === null
  return (
    <li
      class={`trace-row${isFailed(row) ? ' trace-failed' : ''}${pinned ? ' trace-pinned' : ''}`}
      data-testid="trace-row"
      data-method={row.method ?? ''}
      data-kind={row.kind}
      data-direction={row.direction}
      data-server={server}
      data-pinned={pinned}
    >
      <button
        type="button"
        class="trace-pin"
        data-testid="trace-pin"
        aria-pressed={pinned}
        aria-label={`${pinned ? 'Unpin' : 'Pin'} ${row.method ?? 'message'}${row.id === null ? '' : ` #${String(row.id)}`}`}
        title={pinned ? 'Unpin' : 'Pin: keep on top while filtering'}
        onClick={() => store.togglePin(item.key)}
      >
        {pinned ? '★' : '☆'}
      </button>
      <details>
        <summary>
          <span
            class="trace-direction"
            title={row.direction === 'out' ? 'Ferry to the server' : 'The server to Ferry'}
          >
            {ARROWS[row.direction]}
          </span>
          {showServer && <span class="trace-server">{server}</span>}
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
        {replayable && <ReplayControls item={item} replay={store.replay} />}
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

/** Whole milliseconds, with a tenth under 10 ms where the difference shows. */
function formatMs(ms: number): string {
  const shown = ms < 10 ? Math.round(ms * 10) / 10 : Math.round(ms)
  return `${shown.toLocaleString('en-US')} ms`
}
