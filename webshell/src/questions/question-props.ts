// What every question view is given.

import type { OpenQuestion } from '../transcript.js'

export interface QuestionViewProps {
  question: OpenQuestion
  /** The question has been shown for the guard time: its answer keys and buttons work. */
  armed: boolean
}
