// A call waiting for the person's permission: which tool on which server, who called it, its
// arguments, and the four answers. Focus lands on "Allow once"; each answer also has a key, and
// neither keys nor buttons answer until the question is armed.

import { useState } from 'preact/hooks'
import {
  answerForKey,
  CONFIRMATION_ANSWERS,
} from '../../../daemon/src/protocol/confirmation-answers.js'
import type { ConfirmationOutcome } from '../../../daemon/src/protocol/index.js'
import { callerLabel } from '../app-rows.js'
import { useShell } from '../store/shell-context.js'
import { AnswerButton } from './AnswerButton.js'
import type { QuestionViewProps } from './question-props.js'

export function ConfirmationQuestion({ question, armed }: QuestionViewProps) {
  const { store, controller } = useShell()
  const [error, setError] = useState<string | null>(null)
  const [sending, setSending] = useState(false)
  const callId = question.callId ?? ''
  const row = store.transcript.model.value.call(callId)
  const down = store.daemonDown.value
  if (row === undefined) return null
  const answer = async (outcome: ConfirmationOutcome) => {
    if (sending || down || !armed) return
    setSending(true)
    setError(null)
    try {
      await controller.answer(callId, outcome)
    } catch (failure) {
      setError((failure as Error).message)
    } finally {
      setSending(false)
    }
  }
  const onKey = (event: KeyboardEvent) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return
    const choice = answerForKey(event.key)
    if (choice === undefined) return
    // Asleep, the key is swallowed rather than answering or typing anywhere.
    event.preventDefault()
    void answer(choice.outcome)
  }
  return (
    <div
      class="confirmation"
      role="group"
      aria-label={`Allow ${row.serverTool} on ${row.server}?`}
      data-testid="confirmation"
      data-call-id={callId}
      onKeyDown={onKey}
    >
      <p>
        Allow <strong>{row.serverTool}</strong> on <strong>{row.server}</strong> to run?{' '}
        <span class="who">
          Called by {callerLabel(row)} as <code>{row.tool}</code>.
        </span>
      </p>
      <pre class="question-arguments" data-testid="question-arguments" tabIndex={0}>
        {JSON.stringify(row.arguments, null, 2)}
      </pre>
      <div class="choices">
        {CONFIRMATION_ANSWERS.map((choice) => (
          <AnswerButton
            key={choice.outcome}
            armed={armed}
            class={choice.outcome === 'deny' ? 'deny' : undefined}
            disabled={sending || down}
            aria-keyshortcuts={choice.key}
            data-question-focus={choice.outcome === 'allow_once' ? '' : undefined}
            onAnswer={() => void answer(choice.outcome)}
          >
            {choice.label} <kbd aria-hidden="true">{choice.key.toUpperCase()}</kbd>
          </AnswerButton>
        ))}
      </div>
      {down && <p class="error-text">Ferry is not answering; answer once it is back.</p>}
      {error !== null && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
    </div>
  )
}
