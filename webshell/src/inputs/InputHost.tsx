// Shows the oldest open input of the followed session in the input dialog, loaded the first time
// one is needed so the page's first load does not carry it. Focus moves into the dialog when an
// input opens and back to where it was once none is left.

import type { JSX } from 'preact'
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks'
import type { InputAnswer } from '../../../daemon/src/protocol/index.js'
import type { TranscriptModel } from '../transcript.js'
import type { InputDialog } from './InputDialog.js'

export interface InputHostProps {
  model: TranscriptModel
  answer(inputId: string, answer: InputAnswer): Promise<void>
}

export function InputHost({ model, answer }: InputHostProps): JSX.Element | null {
  const [open, setOpen] = useState(() => model.openInputs.list())
  const [Dialog, setDialog] = useState<typeof InputDialog | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const returnTo = useRef<Element | null>(null)

  useEffect(() => {
    const follow = (): void => setOpen(model.openInputs.list())
    follow()
    return model.openInputs.subscribe(follow)
  }, [model])

  const first = open[0]
  useLayoutEffect(() => {
    if (first !== undefined && returnTo.current === null) {
      returnTo.current = document.activeElement
    } else if (first === undefined && returnTo.current !== null) {
      const back = returnTo.current
      returnTo.current = null
      if (back instanceof HTMLElement && back.isConnected) back.focus()
    }
  }, [first])

  useEffect(() => {
    if (first === undefined || Dialog !== null) return
    import('./InputDialog.js').then(
      (module) => setDialog(() => module.InputDialog),
      (error: unknown) => setLoadError(`The input dialog could not load: ${String(error)}`),
    )
  }, [first, Dialog])

  if (first === undefined) return null
  if (Dialog === null) {
    return loadError === null ? null : (
      <p class="banner error-text" role="alert">
        {loadError}
      </p>
    )
  }
  const call = model.callRow(first.callId)
  return (
    <Dialog
      key={first.inputId}
      input={first}
      call={call === undefined ? null : { tool: call.tool, arguments: call.arguments }}
      waiting={open.length}
      answer={(reply) => answer(first.inputId, reply)}
    />
  )
}
