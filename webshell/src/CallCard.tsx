// One call in the transcript: what was called, by whom and from where, its arguments, its
// confirmation (answered in the question bar; here, who answered and how), progress with a cancel
// button while it runs, and how it ended. A running call says so only while Ferry answers.

import { useState } from 'preact/hooks'
import type { ClientRef } from '../../daemon/src/protocol/index.js'
import { callerLabel } from './app-rows.js'
import { AppActivity } from './AppActivity.js'
import { AppFrame } from './apps/AppFrame.js'
import { LogLines } from './EventLine.js'
import { clock } from './format.js'
import { InputLine } from './inputs/InputLine.js'
import { answerSaid } from '../../daemon/src/protocol/confirmation-answers.js'
import { ResultView } from './result/ResultView.js'
import { useShell } from './store/shell-context.js'
import { NOT_ANSWERING } from './store/shell-store.js'
import { isEnded, type CallRow } from './transcript.js'

const STATE_LABELS: Record<CallRow['state'], string> = {
  running: 'running',
  confirming: 'waiting for confirmation',
  done: 'done',
  error: 'error',
  failed: 'failed',
  cancelled: 'cancelled',
  interrupted: 'interrupted',
}

function who(client: ClientRef | null): string {
  return client === null ? 'Ferry' : client.label
}

/** Who answered and how; while it waits, a way to the question bar, where it is answered. */
function Confirmation({ row }: { row: CallRow }) {
  const { store } = useShell()
  const confirmation = row.confirmation
  if (confirmation === null) return null
  if (confirmation.state === 'resolved') {
    return (
      <p class="confirmation-resolved" data-testid="confirmation-answer">
        {who(confirmation.by)} {answerSaid(confirmation.outcome)}.
      </p>
    )
  }
  if (isEnded(row.state)) return null
  return (
    <p class="confirmation-waiting" data-testid="confirmation-waiting">
      Waiting for an answer in the question bar.{' '}
      <button type="button" onClick={() => store.questions.show(`confirmation:${row.callId}`)}>
        Answer
      </button>
    </p>
  )
}

function Progress({ row }: { row: CallRow }) {
  const progress = row.progress
  if (progress === null) return null
  const known = progress.total !== undefined && progress.total > 0
  const label = known ? `${progress.progress} of ${progress.total}` : `${progress.progress}`
  return (
    <div class="progress" data-testid="progress">
      <progress
        max={known ? progress.total : undefined}
        value={known ? progress.progress : undefined}
        aria-label="Progress"
        aria-valuetext={label}
      />
      <span data-testid="progress-text">
        {label}
        {progress.message !== undefined && ` — ${progress.message}`}
      </span>
    </div>
  )
}

function Outcome({ row }: { row: CallRow }) {
  const { controller } = useShell()
  if (row.failure !== null) {
    return (
      <p class="error-text" data-testid="failure">
        {row.failure.message}
      </p>
    )
  }
  if (row.state === 'cancelled') return <p data-testid="cancelled">Cancelled.</p>
  if (row.state === 'interrupted') {
    return <p data-testid="interrupted">Interrupted: Ferry stopped while this call ran.</p>
  }
  if (row.result === null) return null
  const display = row.display
  if (display?.type === 'mcp_app') {
    // Compacted history keeps no App HTML: its text stands in, and no frame is made.
    if (display.html === '') {
      return (
        <p class="app-fallback-text" data-testid="app-compacted">
          {display.fallbackText}
        </p>
      )
    }
    return <AppFrame callId={row.callId} display={display} result={row.result} />
  }
  return (
    <>
      {display?.type === 'plain' && display.appNotShown !== undefined && (
        <p class="app-note" data-testid="app-not-shown">
          {display.appNotShown}
        </p>
      )}
      <ResultView
        result={row.result}
        onOpenResource={(uri, embedded) =>
          controller.openResource({ server: row.server, uri, ...(embedded && { embedded }) })
        }
      />
    </>
  )
}

export function CallCard({ row }: { row: CallRow }) {
  const { store, controller } = useShell()
  const [cancelError, setCancelError] = useState<string | null>(null)
  const running = !isEnded(row.state)
  // Read only while the call runs, so an ended card never renders again for it.
  const stale = running && store.daemonDown.value
  const state = stale
    ? `unknown (${NOT_ANSWERING})`
    : row.confirmation?.state === 'resolved' && row.confirmation.outcome === 'deny'
      ? 'denied'
      : STATE_LABELS[row.state]
  const cancel = () =>
    controller
      .cancel(row.callId)
      .catch((error: unknown) => setCancelError((error as Error).message))
  return (
    <article
      class={`card card-${row.state}`}
      data-testid="call-card"
      data-call-id={row.callId}
      data-state={row.state}
      data-result-seq={row.endSeq ?? undefined}
      data-stale={stale ? 'true' : undefined}
      aria-label={`${row.tool}, ${state}`}
    >
      <header>
        <strong class="tool-name">{row.tool}</strong>{' '}
        <span class={`pill pill-call-${stale ? 'unknown' : row.state}`} data-testid="call-state">
          {state}
        </span>
        <span class="who" data-testid="call-client" data-parent-call-id={row.origin?.parentCallId}>
          {' '}
          by {callerLabel(row)} at <time dateTime={row.time}>{clock(row.time)}</time>
        </span>
      </header>
      <details class="arguments">
        <summary>Arguments</summary>
        <pre data-testid="call-arguments">{JSON.stringify(row.arguments, null, 2)}</pre>
      </details>
      <Confirmation row={row} />
      {row.inputs.map((input) => (
        <InputLine key={input.inputId} input={input} />
      ))}
      <LogLines logs={row.logs} />
      {running && <Progress row={row} />}
      {running && (
        <button type="button" class="cancel" disabled={stale} onClick={() => void cancel()}>
          Cancel
        </button>
      )}
      {cancelError !== null && (
        <p class="error-text" role="alert">
          {cancelError}
        </p>
      )}
      <Outcome row={row} />
      <AppActivity activity={row.app} />
    </article>
  )
}
