// The session as it happens: the newest entries that fit, oldest at the top.

import { Box } from 'ink'
import { CallEntry } from './CallEntry.js'
import { visibleTail } from './entry-rows.js'
import { FeedLine } from './FeedLine.js'
import type { FeedEntry } from './fold-events.js'
import { OutputBlock } from './OutputBlock.js'
import { Text } from './Text.js'

export function FeedPane({
  feed,
  rows,
  width,
}: {
  feed: FeedEntry[]
  rows: number
  width: number
}) {
  return (
    <Box
      flexDirection="column"
      height={rows}
      flexShrink={0}
      justifyContent="flex-end"
      overflow="hidden"
    >
      {feed.length === 0 ? (
        <Text dimColor>
          Nothing has happened in this session yet. Type /help to see what you can do.
        </Text>
      ) : (
        visibleTail(feed, rows).map((entry) =>
          entry.kind === 'call' ? (
            <CallEntry key={entry.key} entry={entry} width={width} />
          ) : entry.kind === 'line' ? (
            <FeedLine key={entry.key} entry={entry} />
          ) : (
            <OutputBlock key={entry.key} entry={entry} />
          ),
        )
      )}
    </Box>
  )
}
