// A running call's progress: a bar (or a count when the total is unknown) and the message.

import { progressBar } from './progress-bar.js'
import { Text } from './Text.js'

export function ProgressBar(props: {
  progress: number
  total: number | undefined
  message: string
  width: number
}) {
  const cells = Math.max(10, Math.min(30, Math.floor(props.width / 4)))
  return (
    <Text wrap="truncate-end">
      {'  '}
      <Text color="cyan">{progressBar(props.progress, props.total, cells)}</Text>
      {props.message === '' ? '' : ` ${props.message}`}
    </Text>
  )
}
