// One line of text for what an MCP App did, for the terminal surfaces (`ferry attach --plain` and
// the full-screen attach): its messages, model context, log lines, links and downloads.

import type { AppEventBody } from '../protocol/index.js'
import { jsonText } from './terminal-text.js'

function contentText(content: Record<string, unknown>[] | undefined): string {
  return (content ?? [])
    .map((block) =>
      block.type === 'text' && typeof block.text === 'string'
        ? block.text
        : `[${String(block.type)}]`,
    )
    .join(' ')
}

/** What the App of `event.callId` did, without the call id. */
export function appEventText(event: AppEventBody): string {
  switch (event.type) {
    case 'app.message':
      return `App message: ${contentText(event.content).slice(0, 200)}`
    case 'app.model_context': {
      const text = contentText(event.content)
      const data = event.structuredContent === undefined ? '' : jsonText(event.structuredContent)
      return `App model context: ${[text, data]
        .filter((part) => part !== '')
        .join(' ')
        .slice(0, 200)}`
    }
    case 'app.log':
      return `App log ${event.level}${event.logger === undefined ? '' : ` ${event.logger}`}: ${(typeof event.data === 'string' ? event.data : jsonText(event.data)).slice(0, 200)}`
    case 'app.link_opened':
      return `App opened ${event.url}`
    case 'app.download':
      return `App download: ${event.files.map((file) => `${file.name} (${file.mimeType}, ${file.bytes} bytes)`).join(', ')}`
  }
}
