// The answers that send no content: Decline, and Cancel where the question allows it (a sampling
// request can only be declined).

import type { JSX } from 'preact'
import type { InputAnswer } from '../../../daemon/src/protocol/index.js'

export function RefuseButtons(props: {
  sending: boolean
  send(answer: InputAnswer): Promise<void>
  cancel?: boolean
}): JSX.Element {
  return (
    <>
      <button
        type="button"
        class="deny"
        disabled={props.sending}
        onClick={() => void props.send({ action: 'decline' })}
      >
        Decline
      </button>
      {props.cancel !== false && (
        <button
          type="button"
          disabled={props.sending}
          onClick={() => void props.send({ action: 'cancel' })}
        >
          Cancel
        </button>
      )}
    </>
  )
}
