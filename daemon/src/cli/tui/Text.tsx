// The attach screen's one way to put text on the terminal: Ink's Text with every string in it
// shown through terminalText, so control sequences in server or transcript text never act on it.

import { Text as InkText, type TextProps } from 'ink'
import { Children, type ReactNode } from 'react'
import { terminalText } from '../terminal-text.js'

function visible(children: ReactNode): ReactNode {
  // Nested elements are Text too (the lint rule keeps Ink's own out), so they do their own part.
  return Children.map(children, (child) =>
    typeof child === 'string' ? terminalText(child) : child,
  )
}

export function Text(props: TextProps) {
  return <InkText {...props}>{visible(props.children)}</InkText>
}
