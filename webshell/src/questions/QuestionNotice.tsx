// The notice of a question that is waiting without having taken focus: shown under the transcript,
// above the question bar, and read out politely, since it came while the person was busy.

import { questionNotice } from './question-guard.js'

export function QuestionNotice() {
  const notice = questionNotice.value
  // Always in the page, so assistive technology hears each change of its text.
  return (
    <p class="question-notice" role="status" data-testid="question-notice">
      {notice?.text ?? ''}
    </p>
  )
}
