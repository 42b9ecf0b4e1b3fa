// What a transcript says of its MCP Apps: the App a call's result rendered (what `app_open` may
// open) and the latest model context each App sent (what `GET /api/sessions/{id}/apps` lists).

import { ErrorCode, FerryError } from '../errors.js'
import type { AppContextInfo, DisplayResult, TranscriptEvent } from '../protocol/index.js'

export type AppDisplay = Extract<DisplayResult, { type: 'mcp_app' }>

/**
 * The App the result of `callId` rendered and the tool that was called, or an error that says why
 * there is none to open.
 */
export function appDisplayOf(
  events: readonly TranscriptEvent[],
  session: string,
  callId: string,
): { display: AppDisplay; tool: string } {
  let tool: string | undefined
  for (const event of events) {
    if (!('callId' in event) || event.callId !== callId) continue
    if (event.type === 'call.requested') tool = event.tool
    else if (event.type === 'call.result') {
      if (event.display.type === 'mcp_app') return { display: event.display, tool: tool ?? '' }
      const why = event.display.appNotShown
      throw new FerryError(
        ErrorCode.BadRequest,
        `call ${callId} has no App: its result shows as plain content${why === undefined ? '' : ` (${why})`}`,
      )
    } else if (
      event.type === 'call.failed' ||
      event.type === 'call.cancelled' ||
      event.type === 'call.interrupted'
    ) {
      throw new FerryError(
        ErrorCode.BadRequest,
        `call ${callId} has no App: it ended without a result (${event.type})`,
      )
    }
  }
  if (tool === undefined) {
    throw new FerryError(ErrorCode.NotFound, `no call ${callId} in session ${session}`)
  }
  throw new FerryError(
    ErrorCode.Conflict,
    `call ${callId} has not finished; its App can be opened once its result is stored`,
  )
}

/** Every App of the transcript, oldest first, each with the latest model context it sent. */
export function appContexts(events: readonly TranscriptEvent[]): AppContextInfo[] {
  const apps = new Map<string, AppContextInfo>()
  for (const event of events) {
    if (event.type === 'call.result' && event.display.type === 'mcp_app') {
      apps.set(event.callId, {
        callId: event.callId,
        server: event.display.serverName,
        resourceUri: event.display.resourceUri,
        modelContext: null,
      })
    } else if (event.type === 'app.model_context') {
      const app = apps.get(event.callId)
      if (app === undefined) continue
      app.modelContext = {
        seq: event.seq,
        time: event.time,
        ...(event.content === undefined ? {} : { content: event.content }),
        ...(event.structuredContent === undefined
          ? {}
          : { structuredContent: event.structuredContent }),
      }
    }
  }
  return [...apps.values()]
}
