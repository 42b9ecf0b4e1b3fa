// The answers that send no content: Decline, and Cancel where the question allows it (a sampling
// request can only be declined). Asleep until the question is armed.

import type { JSX } from 'preact'
import type { InputAnswer } from '../../../daemon/src/protocol/index.js'
import { AnswerButton } from '../questions/AnswerButton.js'

export function RefuseButtons(props: {
  sending: boolean
  armed: boolean
  send(answer: InputAnswer): Promise<void>
  cancel?: boolean
}): JSX.Element {
  return (
    <>
      <AnswerButton
        class="deny"
        armed={props.armed}
        disabled={props.sending}
        onAnswer={() => void props.send({ action: 'decline' })}
      >
        Decline
      </AnswerButton>
      {props.cancel !== false && (
        <AnswerButton
          armed={props.armed}
          disabled={props.sending}
          onAnswer={() => void props.send({ action: 'cancel' })}
        >
          Cancel
        </AnswerButton>
      )}
    </>
  )
}
