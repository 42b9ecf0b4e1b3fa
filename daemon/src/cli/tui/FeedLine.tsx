// A one-line entry: a server status change, a notice, or something this terminal said.

import type { LineEntry } from './fold-events.js'
import { Text } from './Text.js'

export function FeedLine({ entry }: { entry: LineEntry }) {
  const style =
    entry.tone === 'dim'
      ? { dimColor: true }
      : entry.tone === 'warning'
        ? { color: 'yellow' }
        : entry.tone === 'error'
          ? { color: 'red' }
          : {}
  return (
    <Text wrap="truncate-end" {...style}>
      {entry.text}
    </Text>
  )
}
