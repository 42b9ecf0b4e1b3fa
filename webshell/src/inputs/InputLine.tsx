// One input in the transcript, on its call's card or on a line of its own: what the server asked
// and, once it ended, how and by whom (the dialog itself answers it while it is open).

import type { JSX } from 'preact'
import { useShell } from '../store/shell-context.js'
import { resolutionText, type InputEntry } from './input-entries.js'

const KIND_LABELS: Record<InputEntry['kind'], string> = {
  form: 'asked',
  url: 'asked to open',
  sampling: 'asked for a model reply',
}

export function InputLine({ input }: { input: InputEntry }): JSX.Element {
  const { store } = useShell()
  const resolution = input.resolution
  return (
    <div
      class="input-line-row"
      data-testid="input-line"
      data-input-id={input.inputId}
      data-state={resolution === null ? 'open' : resolution.action}
    >
      <span>
        <strong>{input.server}</strong> {KIND_LABELS[input.kind]}:{' '}
        {input.kind === 'url' ? (input.url ?? input.message) : input.message}
      </span>{' '}
      {resolution === null ? (
        <>
          <span class="pill pill-call-confirming">waiting for an answer</span>{' '}
          <button type="button" onClick={() => store.questions.show(`input:${input.inputId}`)}>
            Answer
          </button>
        </>
      ) : (
        <span data-testid="input-resolution">{resolutionText(resolution)}</span>
      )}
      {resolution?.reply !== undefined && (
        <>
          <pre class="input-reply-text" data-testid="input-reply-sent">
            {resolution.reply.text}
          </pre>
          <span class="who" data-testid="input-reply-sent-as">
            Sent as model {resolution.reply.model}
            {resolution.reply.stopReason === undefined
              ? ''
              : `, stop reason ${resolution.reply.stopReason}`}
          </span>
        </>
      )}
    </div>
  )
}
