// One answer to a question, for every kind of question: asleep (dimmed, `aria-disabled`, and its
// click or key ignored) until the question has been shown for the guard time, so an activation
// meant for something else cannot give it.

import type { JSX } from 'preact'

export type AnswerButtonProps = Omit<
  JSX.ButtonHTMLAttributes<HTMLButtonElement>,
  'onClick' | 'aria-disabled' | 'type'
> & {
  armed: boolean
  type?: 'button' | 'submit'
  /** Runs on an awake activation; a submit button may leave it out and answer through its form. */
  onAnswer?: () => void
}

export function AnswerButton({ armed, type = 'button', onAnswer, ...rest }: AnswerButtonProps) {
  return (
    <button
      {...rest}
      type={type}
      aria-disabled={armed ? undefined : 'true'}
      onClick={(event) => {
        // Cancelling the click also stops the form submit it would start (Enter in a field).
        if (!armed) return event.preventDefault()
        onAnswer?.()
      }}
    />
  )
}
