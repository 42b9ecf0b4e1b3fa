// The Protocol pane's head: search, filters (method, server, direction, errors), how many rows
// match of how many, the export of what is shown as JSON lines, and Clear.

import type { JSX } from 'preact'
import { useMemo } from 'preact/hooks'
import type { ProtocolStore } from './protocol-store.js'
import { isFiltering, toJsonLines, type ServerRow, type TraceFilter } from './trace-filter.js'

function messages(count: number): string {
  return count === 1 ? '1 message' : `${count.toLocaleString('en-US')} messages`
}

/** Saves `text` as a file through a link the browser downloads. */
function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/jsonl' }))
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.click()
  // Let go of the data once the browser has surely read it for the download.
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}

function fileName(scope: string | null): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  const who = (scope ?? 'all-servers').replace(/[^A-Za-z0-9_-]/g, '_')
  return `ferry-protocol-${who}-${stamp}.jsonl`
}

export function TraceToolbar({
  store,
  rows,
  shown,
  scope,
}: {
  store: ProtocolStore
  rows: readonly ServerRow[]
  shown: readonly ServerRow[]
  scope: string | null
}): JSX.Element {
  const filter = store.filter.value
  const set = (change: Partial<TraceFilter>) => (store.filter.value = { ...filter, ...change })
  const methods = useMemo(
    () => [...new Set(rows.flatMap(({ row }) => (row.method === null ? [] : [row.method])))].sort(),
    [rows],
  )
  const filtering = isFiltering(filter)
  return (
    <div class="pane-head trace-head">
      <h2>Protocol</h2>
      <span class="pane-count" data-testid="trace-count" aria-live="polite">
        {filtering || shown.length !== rows.length
          ? `${shown.length.toLocaleString('en-US')} of ${messages(rows.length)}`
          : messages(rows.length)}
      </span>
      <div class="trace-filters" role="search" aria-label="Search and filter the messages">
        <input
          type="search"
          class="trace-search"
          data-testid="trace-search"
          placeholder="Search methods and messages"
          aria-label="Search methods and messages"
          value={filter.text}
          onInput={(event) => set({ text: event.currentTarget.value })}
        />
        <select
          data-testid="trace-method"
          aria-label="Method"
          value={filter.method}
          onChange={(event) => set({ method: event.currentTarget.value })}
        >
          <option value="">Every method</option>
          {methods.map((method) => (
            <option key={method} value={method}>
              {method}
            </option>
          ))}
        </select>
        {store.servers.length > 1 && (
          <select
            data-testid="trace-server"
            aria-label="Server"
            value={filter.server}
            onChange={(event) => set({ server: event.currentTarget.value })}
          >
            <option value="">Every server</option>
            {store.servers.map((server) => (
              <option key={server} value={server}>
                {server}
              </option>
            ))}
          </select>
        )}
        <select
          data-testid="trace-direction"
          aria-label="Direction"
          value={filter.direction}
          onChange={(event) =>
            set({ direction: event.currentTarget.value as TraceFilter['direction'] })
          }
        >
          <option value="any">Both directions</option>
          <option value="out">To the server →</option>
          <option value="in">From the server ←</option>
        </select>
        <label class="trace-errors">
          <input
            type="checkbox"
            data-testid="trace-errors"
            checked={filter.errorsOnly}
            onChange={(event) => set({ errorsOnly: event.currentTarget.checked })}
          />
          Errors only
        </label>
      </div>
      <div class="trace-actions">
        <button
          type="button"
          data-testid="trace-export"
          disabled={shown.length === 0}
          title="Download the messages shown, one JSON object a line"
          onClick={() => download(fileName(scope), toJsonLines(shown))}
        >
          Export .jsonl
        </button>
        <button type="button" onClick={() => store.clear()}>
          Clear
        </button>
      </div>
    </div>
  )
}
