// The question a call is waiting on: which tool, on which server, with what, asked by whom; a key
// answers it for every attached client. Keys answer only while the prompt line is empty, so a
// command being typed when the question arrives cannot answer it by accident.

import { Box, useInput } from 'ink'
import { useAttach } from './attach-context.js'
import type { CallEntry } from './fold-events.js'
import { answerForKey, CONFIRMATION_ANSWERS } from '../../protocol/confirmation-answers.js'
import { Text } from './Text.js'

export function ConfirmationPrompt(props: { call: CallEntry; more: number; active: boolean }) {
  const { call, more } = props
  const { controller } = useAttach()
  useInput(
    (input, key) => {
      if (key.ctrl || key.meta) return
      const answer = answerForKey(input)
      if (answer !== undefined) controller.answer(call.callId, answer.outcome)
    },
    { isActive: props.active },
  )
  return (
    <Box
      flexDirection="column"
      flexShrink={0}
      borderStyle="round"
      borderColor="yellow"
      paddingX={1}
      height={5}
    >
      <Text wrap="truncate-end">
        <Text bold color="yellow">
          Allow {call.tool}
        </Text>{' '}
        on server &quot;{call.server}&quot;?
        {call.caller === null ? '' : ` Asked by ${call.caller}.`}
        {more > 0 ? ` (${more} more waiting)` : ''}
      </Text>
      <Text wrap="truncate-end" dimColor>
        arguments: {JSON.stringify(call.arguments)}
      </Text>
      <Text wrap="truncate-end">
        {CONFIRMATION_ANSWERS.map((choice) => (
          <Text key={choice.key}>
            <Text bold inverse>
              {` ${choice.key} `}
            </Text>{' '}
            {choice.label}
            {'   '}
          </Text>
        ))}
      </Text>
    </Box>
  )
}
