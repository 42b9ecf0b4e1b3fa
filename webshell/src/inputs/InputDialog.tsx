// The dialog that answers a server's input, shown in the question bar: a form built from the
// requested schema, a page to open (URL mode), or a reply written in a model's place (sampling).
// It names the server and the call that asked, with that call's arguments. Nothing is sent until
// the question is armed.

import type { JSX } from 'preact'
import { useLayoutEffect, useRef, useState } from 'preact/hooks'
import type { InputAnswer } from '../../../daemon/src/protocol/index.js'
import { SchemaForm } from '../form/SchemaForm.js'
import type { FieldError } from '../form/validate.js'
import type { ClientErrorCode } from '../stream.js'
import type { InputEntry } from './input-entries.js'
import { RefuseButtons } from './RefuseButtons.js'
import { refusalError } from './refusal.js'
import { SamplingAnswer } from './SamplingAnswer.js'
import { UrlAnswer } from './UrlAnswer.js'
import './inputs.css'

/** An answer the daemon refused: `invalid_input_answer` names a field, `conflict` came too late. */
export interface AnswerFailure {
  code: ClientErrorCode
  message: string
}

export interface InputDialogProps {
  input: InputEntry
  /** The call that asked, when the transcript knows it. */
  call: { tool: string; arguments: Record<string, unknown> } | null
  /** Ferry is not answering: nothing can be sent until it is back. */
  down: boolean
  /** Shown for the guard time: its answers work. */
  armed: boolean
  answer(answer: InputAnswer): Promise<void>
}

const KIND_TITLES: Record<InputEntry['kind'], string> = {
  form: 'asks for information',
  url: 'asks you to open a page',
  sampling: 'asks for a model’s reply',
}

export function InputDialog(props: InputDialogProps): JSX.Element {
  const { input } = props
  const root = useRef<HTMLDivElement>(null)
  const [busy, setSending] = useState(false)
  const sending = busy || props.down
  const [failure, setFailure] = useState<string | null>(null)
  const [refusals, setRefusals] = useState<FieldError[] | undefined>(undefined)

  // The question bar puts focus on the control marked for it: the first field, the Open button or
  // the reply. This runs before the bar's own effect; when the dialog arrives later (its module was
  // loading) and the bar holds focus meanwhile, focus moves on into the dialog.
  useLayoutEffect(() => {
    const element = root.current
    const first = element?.querySelector<HTMLElement>('[data-autofocus], input, select, textarea')
    if (element === null || first === null || first === undefined) return
    first.setAttribute('data-question-focus', '')
    const bar = element.closest('[data-testid="question-bar"]')
    if (bar !== null && document.activeElement === bar) first.focus()
  }, [input.inputId])

  const send = async (answer: InputAnswer): Promise<void> => {
    if (!props.armed) return
    setSending(true)
    setFailure(null)
    try {
      await props.answer(answer)
    } catch (error) {
      const { code, message } = error as AnswerFailure
      if (code === 'invalid_input_answer' && input.kind === 'form') {
        const keys = Object.keys(propertiesOf(input.requestedSchema))
        const refusal = refusalError(message, keys)
        if (refusal.path === '') setFailure(message)
        else setRefusals([refusal])
      } else {
        setFailure(message)
      }
    } finally {
      setSending(false)
    }
  }

  const titleId = `input-title-${input.inputId}`
  return (
    <div
      ref={root}
      role="group"
      class="input-dialog"
      data-testid="input-dialog"
      data-input-id={input.inputId}
      data-kind={input.kind}
      aria-labelledby={titleId}
    >
      <header class="input-head">
        <h2 id={titleId}>
          <strong>{input.server}</strong> {KIND_TITLES[input.kind]}
        </h2>
      </header>
      <AskedBy call={props.call} />
      <p class="input-message" data-testid="input-message">
        {input.message}
      </p>
      {input.kind === 'form' && (
        <SchemaForm
          schema={input.requestedSchema ?? { type: 'object' }}
          idPrefix={`input-${input.inputId}`}
          testId="input-form"
          submitLabel="Accept"
          emptyText="Nothing to fill in."
          refusals={refusals}
          submitArmed={props.armed}
          onSubmit={(content) => void send({ action: 'accept', content })}
          actions={<RefuseButtons sending={sending} armed={props.armed} send={send} />}
        />
      )}
      {input.kind === 'url' && (
        <UrlAnswer input={input} sending={sending} armed={props.armed} send={send} />
      )}
      {input.kind === 'sampling' && (
        <SamplingAnswer input={input} sending={sending} armed={props.armed} send={send} />
      )}
      {props.down && <p class="error-text">Ferry is not answering; answer once it is back.</p>}
      {failure !== null && (
        <p class="error-text" role="alert" data-testid="input-failure">
          {failure}
        </p>
      )}
    </div>
  )
}

function AskedBy({ call }: { call: InputDialogProps['call'] }): JSX.Element {
  if (call === null) {
    return <p class="input-call">Not asked by a call Ferry can name.</p>
  }
  return (
    <details class="input-call" data-testid="input-call" open>
      <summary>
        Asked by the call of <strong data-testid="input-call-tool">{call.tool}</strong>
      </summary>
      <pre data-testid="input-call-arguments">{JSON.stringify(call.arguments, null, 2)}</pre>
    </details>
  )
}

function propertiesOf(schema: Record<string, unknown> | undefined): Record<string, unknown> {
  const properties = schema?.properties
  return typeof properties === 'object' && properties !== null
    ? (properties as Record<string, unknown>)
    : {}
}
