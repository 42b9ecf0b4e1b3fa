// One line of text for what an MCP App did, for the terminal surfaces (`ferry attach --plain` and
// the full-screen attach): its messages, model context, log lines, links and downloads, each
// naming the App and quoting what it wrote (`protocol/app-says.ts`).

import type { AppEventBody } from '../protocol/index.js'
import { appName, appQuote, appText } from '../protocol/app-says.js'
import { jsonText } from './terminal-text.js'

/** An App's text is cut to this many characters on a terminal line. */
const SHOWN_CHARS = 200

function contentText(content: Record<string, unknown>[] | undefined): string {
  return (content ?? [])
    .map((block) =>
      block.type === 'text' && typeof block.text === 'string'
        ? block.text
        : `[${String(block.type)}]`,
    )
    .join(' ')
}

/**
 * What the App of `event.callId` did, without the call id. Whatever the App wrote is on this one
 * line, in quotes after the App's name: it can neither start a line nor pass for Ferry's own.
 */
export function appEventText(event: AppEventBody): string {
  switch (event.type) {
    case 'app.message':
      return `${appName(event)} says: ${appQuote(contentText(event.content), SHOWN_CHARS)}`
    case 'app.model_context': {
      const text = contentText(event.content)
      const data = event.structuredContent === undefined ? '' : jsonText(event.structuredContent)
      const both = [text, data].filter((part) => part !== '').join(' ')
      return `App model context: ${appQuote(both, SHOWN_CHARS)}`
    }
    case 'app.log': {
      const data = typeof event.data === 'string' ? event.data : jsonText(event.data)
      const logger = event.logger === undefined ? '' : ` ${appText(event.logger, 80)}`
      return `App log ${event.level}${logger}: ${appQuote(data, SHOWN_CHARS)}`
    }
    case 'app.link_opened':
      return `App opened ${appText(event.url, SHOWN_CHARS)}`
    case 'app.download':
      return `App download: ${event.files.map((file) => `${appText(file.name, 80)} (${appText(file.mimeType, 80)}, ${file.bytes} bytes)`).join(', ')}`
  }
}
