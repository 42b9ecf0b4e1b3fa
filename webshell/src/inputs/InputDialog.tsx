// The dialog that answers a server's input: a form built from the requested schema, a page to
// open (URL mode), or a reply written in a model's place (sampling). It names the server and the
// call that asked, with that call's arguments, and sits above the page wherever it is scrolled.

import type { JSX } from 'preact'
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks'
import type { InputAnswer } from '../../../daemon/src/protocol/index.js'
import { SchemaForm } from '../form/SchemaForm.js'
import type { FieldError } from '../form/validate.js'
import type { InputEntry } from './input-entries.js'
import { refusalError } from './refusal.js'
import { SamplingAnswer } from './SamplingAnswer.js'
import { UrlAnswer } from './UrlAnswer.js'
import './inputs.css'

/** An answer the daemon refused: `invalid_input_answer` names a field, `conflict` came too late. */
export interface AnswerFailure {
  code: string
  message: string
}

export interface InputDialogProps {
  input: InputEntry
  /** The call that asked, when the transcript knows it. */
  call: { tool: string; arguments: Record<string, unknown> } | null
  /** How many inputs are open, this one included. */
  waiting: number
  answer(answer: InputAnswer): Promise<void>
}

const KIND_TITLES: Record<InputEntry['kind'], string> = {
  form: 'asks for information',
  url: 'asks you to open a page',
  sampling: 'asks for a model’s reply',
}

export function InputDialog(props: InputDialogProps): JSX.Element {
  const { input } = props
  const dialog = useRef<HTMLDialogElement>(null)
  const [sending, setSending] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const [refusals, setRefusals] = useState<FieldError[] | undefined>(undefined)

  // Modal, so it is in view and keeps focus wherever the page is scrolled; the host gives focus
  // back to where it was once no input is open.
  useLayoutEffect(() => {
    const element = dialog.current
    if (element !== null && !element.open) element.showModal()
    const first = element?.querySelector<HTMLElement>('[data-autofocus], input, select, textarea')
    first?.focus()
  }, [input.inputId])

  const send = async (answer: InputAnswer): Promise<void> => {
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

  // Esc dismisses the question, which is what `cancel` means; a sampling request has no cancel,
  // so there it does nothing and the person chooses.
  useEffect(() => {
    const element = dialog.current
    if (element === null) return
    const onCancel = (event: Event): void => {
      event.preventDefault()
      if (input.kind !== 'sampling' && !sending) void send({ action: 'cancel' })
    }
    element.addEventListener('cancel', onCancel)
    return () => element.removeEventListener('cancel', onCancel)
  })

  const titleId = `input-title-${input.inputId}`
  return (
    <dialog
      ref={dialog}
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
        {props.waiting > 1 && (
          <span class="input-waiting" data-testid="input-waiting">
            1 of {props.waiting} waiting
          </span>
        )}
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
          onSubmit={(content) => void send({ action: 'accept', content })}
          actions={
            <>
              <button
                type="button"
                class="deny"
                disabled={sending}
                onClick={() => void send({ action: 'decline' })}
              >
                Decline
              </button>
              <button
                type="button"
                disabled={sending}
                onClick={() => void send({ action: 'cancel' })}
              >
                Cancel
              </button>
            </>
          }
        />
      )}
      {input.kind === 'url' && <UrlAnswer input={input} sending={sending} send={send} />}
      {input.kind === 'sampling' && <SamplingAnswer input={input} sending={sending} send={send} />}
      {failure !== null && (
        <p class="error-text" role="alert" data-testid="input-failure">
          {failure}
        </p>
      )}
    </dialog>
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
