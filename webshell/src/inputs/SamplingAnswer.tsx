// Sampling: the conversation a server wants a model to continue, shown with its system prompt,
// model preferences and token limit, and a reply the person writes (or edits from the suggested
// one) and sends in the model's place, with the model name and stop reason the server is told, or
// declines.

import type { JSX } from 'preact'
import { useState } from 'preact/hooks'
import type {
  InputAnswer,
  SamplingReply,
  SamplingRequest,
  STOP_REASONS,
} from '../../../daemon/src/protocol/index.js'
import { AnswerButton } from '../questions/AnswerButton.js'
import type { InputEntry } from './input-entries.js'
import { RefuseButtons } from './RefuseButtons.js'

/** A message's content as text: text parts as they are, anything else by its type. */
export function contentText(content: unknown): string {
  if (Array.isArray(content)) return content.map(contentText).join('\n')
  if (typeof content !== 'object' || content === null) return String(content)
  const part = content as Record<string, unknown>
  if (part.type === 'text' && typeof part.text === 'string') return part.text
  const mime = typeof part.mimeType === 'string' ? `, ${part.mimeType}` : ''
  return `[${typeof part.type === 'string' ? part.type : 'content'}${mime}]`
}

/** MCP's stop reasons, offered as suggestions: any other word may be typed. */
const STOP_REASON_TEXT: Record<(typeof STOP_REASONS)[number], string> = {
  endTurn: 'the reply is complete',
  stopSequence: 'a stop sequence ended it',
  maxTokens: 'the token limit cut it',
}

function Preferences({ preferences }: { preferences: Record<string, unknown> }): JSX.Element {
  const hints = Array.isArray(preferences.hints)
    ? preferences.hints
        .map((hint: unknown) =>
          typeof hint === 'object' && hint !== null ? (hint as { name?: unknown }).name : undefined,
        )
        .filter((name): name is string => typeof name === 'string')
    : []
  const priorities = ['cost', 'speed', 'intelligence'].flatMap((name) => {
    const value = preferences[`${name}Priority`]
    return typeof value === 'number' ? [`${name} ${value}`] : []
  })
  return (
    <>
      {hints.length > 0 && (
        <>
          <dt>Models hinted</dt>
          <dd>{hints.join(', ')}</dd>
        </>
      )}
      {priorities.length > 0 && (
        <>
          <dt>Priorities</dt>
          <dd>{priorities.join(', ')}</dd>
        </>
      )}
    </>
  )
}

function RequestDetails({ sampling }: { sampling: SamplingRequest }): JSX.Element {
  return (
    <dl class="input-sampling-details" data-testid="input-sampling-details">
      {sampling.systemPrompt !== undefined && (
        <>
          <dt>System prompt</dt>
          <dd data-testid="input-system-prompt">{sampling.systemPrompt}</dd>
        </>
      )}
      {sampling.maxTokens !== undefined && (
        <>
          <dt>Max tokens</dt>
          <dd data-testid="input-max-tokens">{sampling.maxTokens}</dd>
        </>
      )}
      {sampling.temperature !== undefined && (
        <>
          <dt>Temperature</dt>
          <dd>{sampling.temperature}</dd>
        </>
      )}
      {sampling.stopSequences !== undefined && sampling.stopSequences.length > 0 && (
        <>
          <dt>Stop sequences</dt>
          <dd>{sampling.stopSequences.map((stop) => JSON.stringify(stop)).join(', ')}</dd>
        </>
      )}
      {sampling.includeContext !== undefined && (
        <>
          <dt>Context asked for</dt>
          <dd>{sampling.includeContext}</dd>
        </>
      )}
      {sampling.modelPreferences !== undefined && (
        <Preferences preferences={sampling.modelPreferences} />
      )}
    </dl>
  )
}

export function SamplingAnswer(props: {
  input: InputEntry
  sending: boolean
  armed: boolean
  send(answer: InputAnswer): Promise<void>
}): JSX.Element {
  const sampling = props.input.sampling ?? { messages: [] }
  const [reply, setReply] = useState(sampling.suggestedReply ?? '')
  const [model, setModel] = useState('')
  const [stopReason, setStopReason] = useState('endTurn')
  const [empty, setEmpty] = useState(false)
  const replyId = `input-reply-${props.input.inputId}`
  const submit = (event: Event): void => {
    event.preventDefault()
    if (reply.trim() === '') return setEmpty(true)
    // Left empty, the daemon's defaults go: model "human", stop reason endTurn.
    const content: SamplingReply = {
      text: reply,
      ...(model.trim() === '' ? {} : { model: model.trim() }),
      ...(stopReason.trim() === '' ? {} : { stopReason: stopReason.trim() }),
    }
    void props.send({ action: 'accept', content })
  }
  return (
    <form class="input-sampling" data-testid="input-sampling" noValidate onSubmit={submit}>
      <ol class="input-messages" data-testid="input-messages">
        {sampling.messages.map((message, index) => (
          <li key={index} class="input-sampling-message">
            <span class="input-role">{String(message.role ?? 'message')}</span>
            <pre>{contentText(message.content)}</pre>
          </li>
        ))}
      </ol>
      <RequestDetails sampling={sampling} />
      <label for={replyId}>Reply, sent in the model’s place</label>
      <textarea
        id={replyId}
        data-autofocus
        data-testid="input-reply"
        rows={6}
        aria-invalid={empty ? 'true' : undefined}
        aria-describedby={empty ? `${replyId}-error` : undefined}
        value={reply}
        onInput={(event) => {
          setReply(event.currentTarget.value)
          setEmpty(false)
        }}
      />
      {empty && (
        <p id={`${replyId}-error`} class="field-error" role="alert">
          Write a reply, or decline.
        </p>
      )}
      <div class="input-reply-meta">
        <label>
          Model name
          <input
            data-testid="input-reply-model"
            placeholder="human"
            value={model}
            onInput={(event) => setModel(event.currentTarget.value)}
          />
        </label>
        <label>
          Stop reason
          <input
            data-testid="input-reply-stop"
            list={`${replyId}-stops`}
            value={stopReason}
            onInput={(event) => setStopReason(event.currentTarget.value)}
          />
          <datalist id={`${replyId}-stops`}>
            {Object.entries(STOP_REASON_TEXT).map(([reason, text]) => (
              <option key={reason} value={reason}>
                {text}
              </option>
            ))}
          </datalist>
        </label>
      </div>
      <div class="sf-actions">
        <AnswerButton type="submit" armed={props.armed} disabled={props.sending}>
          Send reply
        </AnswerButton>
        <RefuseButtons
          sending={props.sending}
          armed={props.armed}
          send={props.send}
          cancel={false}
        />
      </div>
    </form>
  )
}
