// One call in the feed: tool, arguments and caller on one line, then its confirmation, progress
// and result, each on lines of their own.

import { Box } from 'ink'
import { callRows, STATE_MARKS, type RowTone } from './entry-rows.js'
import type { CallEntry as Call } from './fold-events.js'
import { ProgressBar } from './ProgressBar.js'
import { Text } from './Text.js'

const TONES: Record<RowTone, { color?: string; dimColor?: boolean }> = {
  normal: {},
  dim: { dimColor: true },
  warning: { color: 'yellow' },
  error: { color: 'red' },
  success: { color: 'green' },
}

function clock(time: string): string {
  const date = new Date(time)
  return Number.isNaN(date.getTime()) ? '' : date.toTimeString().slice(0, 8)
}

export function CallEntry({ entry, width }: { entry: Call; width: number }) {
  const mark = STATE_MARKS[entry.state]
  return (
    <Box flexDirection="column" flexShrink={0}>
      {callRows(entry).map((row, i) => {
        if (row.kind === 'head') {
          return (
            <Box key={i} height={1}>
              <Box flexShrink={0}>
                <Text color={mark.color}>{mark.symbol} </Text>
                <Text bold>{entry.tool}</Text>
              </Box>
              <Box flexGrow={1} flexShrink={1}>
                <Text wrap="truncate-end"> {JSON.stringify(entry.arguments)}</Text>
              </Box>
              <Box flexShrink={0}>
                <Text dimColor>
                  {entry.caller === null ? '' : `  ${entry.caller}`} {clock(entry.time)}
                </Text>
              </Box>
            </Box>
          )
        }
        if (row.kind === 'progress') {
          return <ProgressBar key={i} {...row} width={width} />
        }
        return (
          <Text key={i} wrap="truncate-end" {...TONES[row.tone]}>
            {'  '}
            {row.text}
          </Text>
        )
      })}
    </Box>
  )
}
