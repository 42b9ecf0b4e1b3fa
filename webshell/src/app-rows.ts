// What the transcript shows of an MCP App that acts: the calls it made (each pointing at the call
// whose result rendered it), its messages as lines of their own, and on its card the latest model
// context, the pages it opened, the files it saved and what it logged. Texts are made once.

import { appName, appQuote, appText } from '../../daemon/src/protocol/app-says.js'
import type { AppEventBody, ClientRef, TranscriptEvent } from '../../daemon/src/protocol/index.js'
import {
  cut,
  dataText,
  lineMaker,
  logTone,
  size,
  type EventLineRow,
  type LineTone,
} from './transcript-lines.js'

export type AppEvent = Extract<TranscriptEvent, { type: AppEventBody['type'] }>
/** The App events shown on the App's card. */
export type AppCardEvent = Exclude<AppEvent, { type: 'app.message' }>

/** Set on a call an App made. */
export interface AppOrigin {
  parentCallId: string
  /** The tool whose App it is, when its call is in the transcript. */
  parentTool: string | null
}

export interface AppActivityLine {
  seq: number
  time: string
  event: AppEventBody['type']
  tone: LineTone
  text: string
}

/** What an App did, shown on the card of the call that rendered it. */
export interface AppActivity {
  /** The latest `ui/update-model-context`, as text. */
  modelContext: { seq: number; time: string; text: string } | null
  lines: AppActivityLine[]
}

/** The origin of a call an App made, naming the App's tool when its call is known. */
export function appOrigin(
  app: { parentCallId: string } | undefined,
  toolOf: (callId: string) => string | undefined,
): AppOrigin | null {
  return app === undefined
    ? null
    : { parentCallId: app.parentCallId, parentTool: toolOf(app.parentCallId) ?? null }
}

/** Who made a call, as the card and its question say it. */
export function callerLabel(row: { client: ClientRef | null; origin: AppOrigin | null }): string {
  const client = row.client === null ? 'Ferry' : row.client.label
  if (row.origin === null) return client
  const app = row.origin.parentTool === null ? 'an App' : `the App of ${row.origin.parentTool}`
  return `${app} in ${client}`
}

/** What the card of `row` shows after `event` (not `app.message`, which is a line of its own). */
export function appActivityPatch(
  row: { app: AppActivity | null },
  event: AppCardEvent,
): { app: AppActivity } {
  const activity = row.app ?? { modelContext: null, lines: [] }
  if (event.type === 'app.model_context') {
    const text = contextText(event)
    return { app: { ...activity, modelContext: { seq: event.seq, time: event.time, text } } }
  }
  const line = { seq: event.seq, time: event.time, event: event.type, ...said(event) }
  return { app: { ...activity, lines: [...activity.lines, line] } }
}

/** An App event as a transcript line: a message, or what an App whose card is not shown did. */
export function appLine(event: AppEvent, parentTool: string | null): EventLineRow {
  const app = parentTool === null ? 'An App' : `The App of ${parentTool}`
  const line = lineMaker(event)
  if (event.type === 'app.message') {
    // The daemon names the App; a message recorded before it did is named by its call's row.
    const who = event.tool === undefined ? app : appName(event)
    const said = `${who} says${byWhom(event.client)} (shown here only: Ferry passes it to no model):`
    const text = contentText(event.content)
    return {
      ...line('info', `${said} ${appQuote(text)}`, { role: event.role, content: event.content }),
      said: { who: said, text: appText(text) },
    }
  }
  if (event.type === 'app.model_context') {
    return line('dim', `${app} set its model context: ${contextText(event)}`)
  }
  const { tone, text } = said(event)
  return line(tone, `${app} ${text}`)
}

function said(event: Exclude<AppCardEvent, { type: 'app.model_context' }>): {
  tone: LineTone
  text: string
} {
  switch (event.type) {
    case 'app.log': {
      const logger = event.logger === undefined ? '' : ` (${event.logger})`
      return {
        tone: logTone(event.level),
        text: `logged ${event.level}${logger}: ${cut(dataText(event.data))}`,
      }
    }
    case 'app.link_opened':
      return { tone: 'dim', text: `opened ${event.url} in a new tab` }
    case 'app.download':
      return {
        tone: 'dim',
        text: `saved ${event.files.map((file) => `${file.name} (${file.mimeType || 'no type'}, ${size(file.bytes)})`).join(', ')}`,
      }
  }
}

function contextText(event: Extract<AppEvent, { type: 'app.model_context' }>): string {
  const parts = [
    event.content === undefined || event.content.length === 0 ? '' : contentText(event.content),
    event.structuredContent === undefined ? '' : dataText(event.structuredContent),
  ].filter((part) => part !== '')
  return cut(parts.length === 0 ? '(empty)' : parts.join(' · '))
}

/** Content blocks as one line: their text, and what kind of thing each other block is. */
export function contentText(content: readonly Record<string, unknown>[]): string {
  return content
    .map((block) => {
      if (block.type === 'text' && typeof block.text === 'string') return block.text
      const resource = block.resource as { uri?: unknown } | undefined
      const uri = typeof block.uri === 'string' ? block.uri : resource?.uri
      return `[${String(block.type)}${typeof uri === 'string' ? ` ${uri}` : ''}]`
    })
    .join(' ')
}

function byWhom(client: ClientRef | null): string {
  return client === null ? '' : ` in ${client.label}`
}
