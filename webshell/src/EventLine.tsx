// One line of the transcript for a prompt get, a resource read or subscription, a server log
// message or an App's message: text made by the model (an App's words set apart, in quotes, after
// who says them), a stored body shown only when opened, and a way to the resource.

import { useState } from 'preact/hooks'
import { clock } from './format.js'
import { useShell } from './store/shell-context.js'
import type { EventLineRow, LogEntry } from './transcript-lines.js'

export function EventLine({ row }: { row: EventLineRow }) {
  const { controller } = useShell()
  const resource = row.resource
  return (
    <div class={`event-line tone-${row.tone}`} data-testid="event-line" data-event={row.event}>
      <p>
        <time dateTime={row.time}>{clock(row.time)}</time>{' '}
        {row.said === undefined ? (
          row.text
        ) : (
          <>
            <span class="app-says-who" data-testid="app-says-who">
              {row.said.who}
            </span>{' '}
            <q class="app-says" data-testid="app-says">
              {row.said.text}
            </q>
          </>
        )}
        {resource !== null && row.event !== 'resource.unsubscribed' && (
          <>
            {' '}
            <button type="button" onClick={() => controller.openResource(resource)}>
              Open in Resources
            </button>
          </>
        )}
      </p>
      {row.body !== null && <Body body={row.body} />}
    </div>
  )
}

/** The body is laid out only once the reader opens it. */
function Body({ body }: { body: Record<string, unknown> }) {
  const [open, setOpen] = useState(false)
  return (
    <details
      class="event-body"
      onToggle={(event) => setOpen((event.currentTarget as HTMLDetailsElement).open)}
    >
      <summary>Body</summary>
      {open && <pre data-testid="event-body">{JSON.stringify(body, null, 2)}</pre>}
    </details>
  )
}

export function LogLines({ logs }: { logs: readonly LogEntry[] }) {
  if (logs.length === 0) return null
  return (
    <ul class="call-logs" aria-label="Server log">
      {logs.map((log) => (
        <li key={log.seq} class={`tone-${log.tone}`} data-testid="call-log" data-level={log.level}>
          <time dateTime={log.time}>{clock(log.time)}</time> {log.text}
        </li>
      ))}
    </ul>
  )
}
