// The top line: which session this is, whether the stream is up, and whether this is read-only.

import { Box } from 'ink'
import type { AttachState } from './attach-store.js'
import { Text } from './Text.js'

export function Header({ state }: { state: AttachState }) {
  const { session, connection, connectionDetail, readOnly } = state
  return (
    <Box height={1} flexShrink={0}>
      <Text bold>ferry attach</Text>
      <Text> · session </Text>
      {session === null ? (
        <Text dimColor>…</Text>
      ) : (
        <>
          <Text bold>{session.name ?? session.id}</Text>
          {session.name === null ? null : <Text dimColor> {session.id}</Text>}
        </>
      )}
      <Text> · </Text>
      {connection === 'connected' ? (
        <Text color="green">● connected</Text>
      ) : (
        <Box flexShrink={1}>
          <Text color="yellow" wrap="truncate-end">
            ◌ {connection === 'connecting' ? 'connecting…' : 'reconnecting…'}
            {connectionDetail === null ? '' : ` (${connectionDetail})`}
          </Text>
        </Box>
      )}
      {readOnly ? <Text color="magenta"> · read-only</Text> : null}
    </Box>
  )
}
