// Replay and edit-and-replay of one request of the Protocol pane: sent again as traced, or with
// params edited as JSON, through the daemon's replay (the same call path and confirmations as any
// request). Offered only for requests the daemon replays.

import type { JSX } from 'preact'
import { useState } from 'preact/hooks'
import type { ReplayResponse } from '../../../daemon/src/protocol/index.js'
import { toJson } from '../result/content.js'
import type { ServerRow } from './trace-filter.js'

type Status =
  | { state: 'idle' }
  | { state: 'sending' }
  | { state: 'done'; text: string }
  | { state: 'failed'; text: string }

/** Why the text is not params, or null when it parses to a JSON object. */
export function paramsProblem(text: string): string | null {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return `The params are not valid JSON (${(error as Error).message}). Fix the JSON and send again.`
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'The params must be a JSON object, like {"name": "…", "arguments": {}}. Fix them and send again.'
  }
  return null
}

function outcome(response: ReplayResponse): string {
  const result = response.result as { isError?: unknown } | null
  const failed = result !== null && typeof result === 'object' && result.isError === true
  return `${response.method} sent again${failed ? ': the result is an error' : ''}. Its messages are at the top.`
}

export function ReplayControls({
  item,
  replay,
}: {
  item: ServerRow
  replay: (item: ServerRow, params?: unknown) => Promise<ReplayResponse>
}): JSX.Element {
  const traced = (item.row.request?.message as { params?: unknown } | null)?.params
  const [editing, setEditing] = useState<string | null>(null)
  const [status, setStatus] = useState<Status>({ state: 'idle' })
  const send = (params?: unknown) => {
    setStatus({ state: 'sending' })
    replay(item, params).then(
      (response) => setStatus({ state: 'done', text: outcome(response) }),
      (error: unknown) =>
        setStatus({ state: 'failed', text: `Not replayed: ${(error as Error).message}` }),
    )
  }
  const sendEdited = () => {
    const text = editing ?? ''
    const problem = paramsProblem(text)
    if (problem !== null) {
      setStatus({ state: 'failed', text: problem })
      return
    }
    send(JSON.parse(text) as unknown)
  }
  const sending = status.state === 'sending'
  const id = `replay-${item.key.replace(/[^A-Za-z0-9_-]/g, '_')}`
  return (
    <div class="trace-replay" data-testid="replay">
      <div class="trace-replay-actions">
        <button type="button" data-testid="replay-send" disabled={sending} onClick={() => send()}>
          Replay
        </button>
        <button
          type="button"
          data-testid="replay-edit"
          aria-expanded={editing !== null}
          aria-controls={`${id}-params`}
          onClick={() => setEditing(editing === null ? toJson(traced ?? {}) : null)}
        >
          Edit and replay
        </button>
      </div>
      {editing !== null && (
        <div class="trace-replay-editor">
          <label for={`${id}-params`}>Params (JSON)</label>
          <textarea
            id={`${id}-params`}
            data-testid="replay-params"
            rows={Math.min(12, editing.split('\n').length + 1)}
            spellcheck={false}
            value={editing}
            onInput={(event) => setEditing(event.currentTarget.value)}
          />
          <button
            type="button"
            data-testid="replay-send-edited"
            disabled={sending}
            onClick={sendEdited}
          >
            Send edited
          </button>
        </div>
      )}
      <p
        class={status.state === 'failed' ? 'error-text' : 'trace-meta'}
        data-testid="replay-status"
        data-state={status.state}
        role={status.state === 'failed' ? 'alert' : 'status'}
      >
        {status.state === 'sending'
          ? 'Sending… (a call that needs your confirmation waits for it in the transcript)'
          : status.state === 'idle'
            ? ''
            : status.text}
      </p>
    </div>
  )
}
