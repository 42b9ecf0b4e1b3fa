// URL mode: the page a server wants the person to visit, shown in full with its origin. Nothing
// opens until the person clicks, and then only an http(s) page, in a new tab that gets neither
// this page's window nor its address.

import type { JSX } from 'preact'
import type { InputAnswer } from '../../../daemon/src/protocol/index.js'
import { AnswerButton } from '../questions/AnswerButton.js'
import type { InputEntry } from './input-entries.js'
import { RefuseButtons } from './RefuseButtons.js'

/** The URL's origin as the person should judge it; null for a URL Ferry will not open. */
export function openableOrigin(url: string): string | null {
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.origin : null
  } catch {
    return null
  }
}

export function UrlAnswer(props: {
  input: InputEntry
  sending: boolean
  armed: boolean
  send(answer: InputAnswer): Promise<void>
}): JSX.Element {
  const url = props.input.url ?? ''
  const origin = openableOrigin(url)
  const shownOrigin = origin ?? props.input.urlOrigin ?? 'an address Ferry cannot open'
  const open = (): void => {
    if (origin === null) return
    window.open(url, '_blank', 'noopener,noreferrer')
    void props.send({ action: 'accept' })
  }
  return (
    <div class="input-url">
      <p>
        The page is on <strong data-testid="input-url-origin">{shownOrigin}</strong>:
      </p>
      <p class="input-url-full">
        <code data-testid="input-url">{url}</code>
      </p>
      {origin === null && (
        <p class="error-text" data-testid="input-url-refused">
          Ferry opens only http and https pages; decline or cancel this request.
        </p>
      )}
      <div class="sf-actions">
        <AnswerButton
          armed={props.armed}
          data-autofocus
          data-testid="input-url-open"
          disabled={props.sending || origin === null}
          onAnswer={open}
        >
          Open page in a new tab
        </AnswerButton>
        <RefuseButtons sending={props.sending} armed={props.armed} send={props.send} />
      </div>
    </div>
  )
}
