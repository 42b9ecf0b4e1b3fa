// The prompt at the bottom: a one-line editor with history and Tab completion, and a hint line.
// While a confirmation or a server's question waits, keys go to it whenever the line is empty.

import { Box, useInput } from 'ink'
import { useRef, useState } from 'react'
import { useAttach } from './attach-context.js'
import { completeInput } from './complete-input.js'
import {
  actionForKey,
  editLine,
  emptyLine,
  splitTyped,
  submitLine,
  viewport,
  type LineState,
} from './line-editor.js'
import { Text } from './Text.js'

export function CommandLine(props: {
  /** What waits for an answer above the prompt. */
  asking: 'confirmation' | 'input' | null
  readOnly: boolean
  width: number
  onTypingChange: (typing: boolean) => void
}) {
  const { controller, store } = useAttach()
  const [line, setLineState] = useState(emptyLine)
  const [hint, setHint] = useState<string | null>(null)
  // Keys can arrive faster than React re-renders: edits build on the latest line, not a stale one.
  const current = useRef(line)
  const setLine = (next: LineState) => {
    if ((next.text === '') !== (current.current.text === '')) props.onTypingChange(next.text !== '')
    current.current = next
    setLineState(next)
  }
  const active = props.asking === null || line.text !== ''

  const submit = () => {
    const { line: text, state } = submitLine(current.current)
    setLine(state)
    controller.submit(text)
  }

  const complete = () => {
    const tools = store.get().tools
    if (tools.length === 0) void controller.refreshTools().catch(() => {})
    const completion = completeInput(current.current.text, tools)
    setLine(editLine(current.current, { kind: 'set', text: completion.input }))
    if (completion.candidates.length > 0) setHint(completion.candidates.join('  '))
  }

  useInput(
    (input, key) => {
      if (key.ctrl && input === 'c') return
      setHint(null)
      if (key.return) return submit()
      if (key.tab) return complete()
      if (!key.ctrl && !key.meta && input.length > 1) {
        for (const typed of splitTyped(input)) {
          if (typed.kind === 'enter') submit()
          else if (typed.kind === 'tab') complete()
          else if (typed.kind === 'backspace') setLine(editLine(current.current, typed))
          else setLine(editLine(current.current, { kind: 'insert', text: typed.text }))
        }
        return
      }
      const action = actionForKey(input, key)
      if (action !== undefined) setLine(editLine(current.current, action))
    },
    { isActive: active },
  )

  const view = viewport(line, props.width - 3)
  const idle = props.readOnly
    ? 'read-only: watching · /help · Ctrl-C detaches'
    : 'Tab completes · /help lists commands · Ctrl-C detaches'
  const waiting = props.asking === 'input' ? 'a question' : 'a confirmation'
  const status =
    props.asking === null
      ? (hint ?? idle)
      : active
        ? `${waiting} waits: press Enter or clear the line (Ctrl-U) to answer it`
        : props.asking === 'input'
          ? 'answer the question above; Ctrl-C detaches'
          : 'answer the confirmation above: o, t, s or d'
  return (
    <Box
      flexDirection="column"
      flexShrink={0}
      height={3}
      borderStyle="single"
      borderLeft={false}
      borderRight={false}
      borderBottom={false}
      borderDimColor
    >
      <Text wrap="truncate-end">
        <Text color={active ? 'cyan' : 'gray'}>› </Text>
        {view.before}
        {active ? <Text inverse>{view.at}</Text> : view.at}
        {view.after}
      </Text>
      <Text wrap="truncate-end" dimColor>
        {status}
      </Text>
    </Box>
  )
}
