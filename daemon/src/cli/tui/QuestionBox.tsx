// The frame of a server's question in the full-screen attach: a box of a fixed height, headed by
// who asks, that the question's own lines fill.

import { Box } from 'ink'
import type { ReactNode } from 'react'
import { Text } from './Text.js'

export function QuestionBox(props: { rows: number; head: string; children: ReactNode }) {
  return (
    <Box
      flexDirection="column"
      flexShrink={0}
      borderStyle="round"
      borderColor="magenta"
      paddingX={1}
      height={props.rows}
    >
      <Text wrap="truncate-end">{props.head}</Text>
      {props.children}
    </Box>
  )
}
