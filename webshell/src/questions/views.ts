// The view of each kind of question in the question bar. A view shows what is asked (with the
// call's arguments when it belongs to a call), marks the control focus should land on with
// `data-question-focus`, keeps its answers asleep until `armed`, and answers through the
// controller; the bar does the rest.

import type { ComponentType } from 'preact'
import type { QuestionKind } from '../transcript.js'
import { InputQuestion } from '../inputs/InputQuestion.js'
import { ConfirmationQuestion } from './ConfirmationQuestion.js'
import type { QuestionViewProps } from './question-props.js'

export type { QuestionViewProps }

export const QUESTION_VIEWS: Record<QuestionKind, ComponentType<QuestionViewProps>> = {
  confirmation: ConfirmationQuestion,
  input: InputQuestion,
}
