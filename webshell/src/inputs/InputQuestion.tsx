// An input in the question bar: loads the input dialog the first time one is shown, so the page's
// first load does not carry it, and hands it the input, the call that asked and the answer action.

import type { JSX } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import type { QuestionViewProps } from '../questions/question-props.js'
import { useShell } from '../store/shell-context.js'
import type { InputDialog } from './InputDialog.js'

let loaded: typeof InputDialog | null = null

export function InputQuestion({ question, armed }: QuestionViewProps): JSX.Element | null {
  const { store, controller } = useShell()
  const [Dialog, setDialog] = useState<typeof InputDialog | null>(() => loaded)
  const [loadError, setLoadError] = useState<string | null>(null)
  useEffect(() => {
    if (Dialog !== null) return
    import('./InputDialog.js').then(
      (module) => {
        loaded = module.InputDialog
        setDialog(() => module.InputDialog)
      },
      (error: unknown) => setLoadError(`The input dialog could not load: ${String(error)}`),
    )
  }, [Dialog])

  const model = store.transcript.model.value
  const inputId = question.id.slice('input:'.length)
  const input = model.input(inputId)
  if (input === undefined) return null
  if (Dialog === null) {
    return loadError === null ? (
      <p aria-busy="true">Loading the question…</p>
    ) : (
      <p class="error-text" role="alert">
        {loadError}
      </p>
    )
  }
  const call = input.callId === null ? undefined : model.call(input.callId)
  return (
    <Dialog
      input={input}
      call={call === undefined ? null : { tool: call.tool, arguments: call.arguments }}
      down={store.daemonDown.value}
      armed={armed}
      answer={async (answer) => void (await controller.answerInput(inputId, answer))}
    />
  )
}
