// The question a server waits on, shown like a confirmation: a form, a page to visit (its URL and
// origin; opened only on `o`), or a sampling request to reply to in the model's place. The answer
// goes to every attached client; a refusal from the daemon stays on the prompt to be fixed.

import { useInput } from 'ink'
import { useRef, useState } from 'react'
import type { InputAnswer, InputRequestedEvent } from '../../protocol/index.js'
import { openInBrowser } from '../browser.js'
import { samplingLines, urlOrigin } from '../input-view.js'
import { useAttach } from './attach-context.js'
import { FormPrompt } from './FormPrompt.js'
import {
  actionForKey,
  editLine,
  emptyLine,
  splitTyped,
  viewport,
  type LineState,
} from './line-editor.js'
import type { AnswerState } from './open-inputs.js'
import { QuestionBox } from './QuestionBox.js'
import { Text } from './Text.js'

interface PromptProps {
  input: InputRequestedEvent
  answer: AnswerState | undefined
  /** Rows of the box, and of them the body's (form fields, sampling lines). */
  rows: number
  body: number
  /** The call that asked, when this screen knows it. */
  tool: string | null
  more: number
  active: boolean
}

function Keys(props: { keys: [string, string][] }) {
  return (
    <Text wrap="truncate-end">
      {props.keys.map(([key, label]) => (
        <Text key={key}>
          <Text bold inverse>
            {` ${key} `}
          </Text>{' '}
          {label}
          {'   '}
        </Text>
      ))}
    </Text>
  )
}

function status(answer: AnswerState | undefined, note: string | null): [string, boolean] {
  if (answer?.state === 'sending') return ['sent; waiting for the daemon…', false]
  if (answer?.state === 'refused') return [`refused: ${answer.message}`, true]
  return [note ?? '', false]
}

function UrlPrompt(props: PromptProps & { head: string }) {
  const { controller } = useAttach()
  const [note, setNote] = useState<string | null>(null)
  const send = (answer: InputAnswer) => controller.answerInput(props.input.inputId, answer)
  useInput(
    (input, key) => {
      if (props.answer?.state === 'sending' || key.ctrl || key.meta) return
      const typed = input.toLowerCase()
      if (typed === 'o') {
        setNote('opening…')
        // The full-screen attach runs only on the process's own terminal.
        void openInBrowser(props.input.url ?? '', process.env).then(setNote)
      } else if (typed === 'a') send({ action: 'accept' })
      else if (typed === 'd') send({ action: 'decline' })
      else if (typed === 'c' || key.escape) send({ action: 'cancel' })
    },
    { isActive: props.active },
  )
  const [line, bad] = status(props.answer, note)
  return (
    <QuestionBox rows={props.rows} head={props.head}>
      <Text wrap="truncate-end" bold>
        {props.input.url ?? ''}
      </Text>
      <Text wrap="truncate-end">
        leads to <Text bold>{urlOrigin(props.input)}</Text>
      </Text>
      <Text wrap="truncate-end" color={bad ? 'red' : undefined} dimColor={!bad}>
        {line}
      </Text>
      <Keys
        keys={[
          ['o', 'open in the browser'],
          ['a', 'accept'],
          ['d', 'decline'],
          ['c', 'cancel'],
        ]}
      />
    </QuestionBox>
  )
}

function SamplingPrompt(props: PromptProps & { head: string }) {
  const { controller } = useAttach()
  const start = props.input.sampling?.suggestedReply?.replace(/\s*\n\s*/g, ' ') ?? ''
  const [reply, setReplyState] = useState<LineState>(() => ({
    ...emptyLine(),
    text: start,
    cursor: start.length,
  }))
  const current = useRef(reply)
  const setReply = (next: LineState) => {
    current.current = next
    setReplyState(next)
  }
  const send = (answer: InputAnswer) => controller.answerInput(props.input.inputId, answer)
  useInput(
    (input, key) => {
      if (props.answer?.state === 'sending' || (key.ctrl && input === 'c')) return
      if (key.escape) return send({ action: 'cancel' })
      if (key.ctrl && input === 'd') return send({ action: 'decline' })
      const typed = !key.ctrl && !key.meta && input.length > 1 ? splitTyped(input) : undefined
      if (key.return || typed?.some((t) => t.kind === 'enter') === true) {
        const text =
          typed
            ?.filter((t) => t.kind === 'text')
            .map((t) => (t as { text: string }).text)
            .join('') ?? ''
        const line =
          text === '' ? current.current : editLine(current.current, { kind: 'insert', text })
        return send({ action: 'accept', content: { text: line.text } })
      }
      const action =
        typed !== undefined ? { kind: 'insert' as const, text: input } : actionForKey(input, key)
      if (action !== undefined && action.kind !== 'up' && action.kind !== 'down') {
        setReply(editLine(current.current, action))
      }
    },
    { isActive: props.active },
  )
  const lines = props.input.sampling === undefined ? [] : samplingLines(props.input.sampling)
  const view = viewport(reply, 80)
  const [line, bad] = status(props.answer, "your reply goes to the server in the model's place")
  return (
    <QuestionBox rows={props.rows} head={props.head}>
      {lines.slice(-props.body).map((text, i) => (
        <Text key={i} wrap="truncate-end" dimColor>
          {'  '}
          {text}
        </Text>
      ))}
      <Text wrap="truncate-end">
        <Text color="magenta">reply › </Text>
        {view.before}
        <Text inverse>{view.at}</Text>
        {view.after}
      </Text>
      <Text wrap="truncate-end" color={bad ? 'red' : undefined} dimColor={!bad}>
        {line}
      </Text>
      <Text wrap="truncate-end" dimColor>
        Enter sends · Esc cancels · Ctrl-D declines
      </Text>
    </QuestionBox>
  )
}

export function InputPrompt(props: PromptProps) {
  const what =
    props.input.kind === 'url'
      ? 'asks you to visit a page'
      : props.input.kind === 'sampling'
        ? 'asks for a model reply'
        : 'asks'
  const head = `server "${props.input.server}" ${what}${props.tool === null ? '' : ` (${props.tool})`}: ${props.input.message}${props.more > 0 ? ` (${props.more} more waiting)` : ''}`
  if (props.input.kind === 'url') return <UrlPrompt {...props} head={head} />
  if (props.input.kind === 'sampling') return <SamplingPrompt {...props} head={head} />
  return <FormPrompt {...props} head={head} />
}
