// What a command of this terminal printed (`/tools`, `/help`…), one screen line per line.

import { Box } from 'ink'
import type { OutputEntry } from './fold-events.js'
import { Text } from './Text.js'

export function OutputBlock({ entry }: { entry: OutputEntry }) {
  return (
    <Box flexDirection="column" flexShrink={0}>
      <Text wrap="truncate-end" dimColor>
        › {entry.title}
      </Text>
      {entry.lines.map((line, i) => (
        <Text key={i} wrap="truncate-end">
          {line === '' ? ' ' : line}
        </Text>
      ))}
    </Box>
  )
}
