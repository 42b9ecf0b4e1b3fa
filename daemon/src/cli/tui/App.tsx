// The full-screen attach: header, the session's feed, the confirmation or server question that
// waits (if any; confirmations first), and the prompt. Ctrl-C detaches from anywhere.

import { Box, useInput } from 'ink'
import { useState } from 'react'
import { useAttach, useAttachState } from './attach-context.js'
import { CommandLine } from './CommandLine.js'
import { ConfirmationPrompt } from './ConfirmationPrompt.js'
import { FeedPane } from './FeedPane.js'
import { pendingConfirmations } from './fold-events.js'
import { Header } from './Header.js'
import { InputPrompt } from './InputPrompt.js'
import { CONFIRMATION_ROWS, feedRows, inputRows, screenRows } from './layout.js'
import { useTerminalSize } from './use-terminal-size.js'

export function App() {
  const state = useAttachState()
  const { detach } = useAttach()
  const { columns, rows } = useTerminalSize()
  const [typing, setTyping] = useState(false)
  useInput((input, key) => {
    if (key.ctrl && input === 'c') detach()
  })
  const waiting = state.readOnly
    ? []
    : pendingConfirmations(state.feed).filter((call) => !state.answered.has(call.callId))
  const asking = waiting[0]
  const inputs = state.readOnly ? [] : state.inputs
  const question = asking === undefined ? inputs[0] : undefined
  const size = question === undefined ? undefined : inputRows(question, rows)
  const promptRows = asking !== undefined ? CONFIRMATION_ROWS : (size?.rows ?? 0)
  const caller =
    question?.callId == null
      ? undefined
      : state.feed.find((entry) => entry.kind === 'call' && entry.callId === question.callId)
  return (
    <Box flexDirection="column" width={columns} height={screenRows(rows)}>
      <Header state={state} />
      <FeedPane feed={state.feed} rows={feedRows(rows, promptRows)} width={columns} />
      {asking === undefined ? null : (
        <ConfirmationPrompt
          key={asking.callId}
          call={asking}
          more={waiting.length - 1}
          active={!typing}
        />
      )}
      {question === undefined || size === undefined ? null : (
        <InputPrompt
          key={question.inputId}
          input={question}
          answer={state.inputAnswers.get(question.inputId)}
          rows={size.rows}
          body={size.body}
          tool={caller?.kind === 'call' ? caller.tool : null}
          more={inputs.length - 1}
          active={!typing}
        />
      )}
      <CommandLine
        asking={asking !== undefined ? 'confirmation' : question !== undefined ? 'input' : null}
        readOnly={state.readOnly}
        width={columns}
        onTypingChange={setTyping}
      />
    </Box>
  )
}
