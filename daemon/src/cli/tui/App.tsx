// The full-screen attach: header, the session's feed, the confirmation that waits (if any), and
// the prompt. Ctrl-C detaches from anywhere.

import { Box, useInput } from 'ink'
import { useState } from 'react'
import { useAttach, useAttachState } from './attach-context.js'
import { CommandLine } from './CommandLine.js'
import { ConfirmationPrompt } from './ConfirmationPrompt.js'
import { FeedPane } from './FeedPane.js'
import { pendingConfirmations } from './fold-events.js'
import { Header } from './Header.js'
import { feedRows, screenRows } from './layout.js'
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
  return (
    <Box flexDirection="column" width={columns} height={screenRows(rows)}>
      <Header state={state} />
      <FeedPane feed={state.feed} rows={feedRows(rows, asking !== undefined)} width={columns} />
      {asking === undefined ? null : (
        <ConfirmationPrompt
          key={asking.callId}
          call={asking}
          more={waiting.length - 1}
          active={!typing}
        />
      )}
      <CommandLine
        asking={asking !== undefined}
        readOnly={state.readOnly}
        width={columns}
        onTypingChange={setTyping}
      />
    </Box>
  )
}
