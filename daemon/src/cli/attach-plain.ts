// ferry attach --plain / --json: the session's events as lines on stdout, for pipes and logs.
// Detaching (Ctrl-C) leaves the session running; a daemon restart is ridden out by reconnecting.
// An MCP App's HTML is never printed: it is for the WebShell's sandbox, not for terminals or logs.
// It never answers confirmations, so it never counts as a client that could.

import type { DisplayResult, TranscriptEvent } from '../protocol/index.js'
import type { CliContext } from './context.js'
import { appEventText } from './app-event-text.js'
import { SETTINGS_RECOVERED_TEXT, settingsProblemText } from '../protocol/settings-says.js'
import { StreamClient } from './stream-client.js'
import { jsonText } from './terminal-text.js'

export function describeEvent(event: TranscriptEvent): string {
  const time = event.time.slice(11, 19)
  const who = event.client === null ? '' : ` (${event.client.label})`
  const head = `#${event.seq} ${time} ${event.type}`
  switch (event.type) {
    case 'call.requested':
      return `${head} ${event.callId} ${event.tool} ${jsonText(event.arguments)}${event.app === undefined ? '' : ` by the App of ${event.app.parentCallId}`}${who}`
    case 'confirmation.requested':
      return `${head} ${event.callId} ${event.tool} on "${event.server}" needs a confirmation`
    case 'confirmation.resolved':
      return `${head} ${event.callId} ${event.outcome}${who}`
    case 'call.progress':
      return `${head} ${event.callId} ${event.progress}${event.total === undefined ? '' : `/${event.total}`}${event.message ? ` ${event.message}` : ''}`
    case 'call.result':
      return `${head} ${event.callId}${event.result.isError === true ? ' error' : ''} ${jsonText(event.result.content ?? null).slice(0, 200)}${displayNote(event.display)}`
    case 'call.failed':
      return `${head} ${event.callId} ${event.error.code}: ${event.error.message}`
    case 'call.cancelled':
    case 'call.interrupted':
      return `${head} ${event.callId}`
    case 'call.task':
      return `${head} ${event.callId} answered with a task${who}`
    case 'server.status':
      return `${head} ${event.server} ${event.status}${event.error ? `: ${event.error}` : ''}`
    case 'notice':
      return `${head} ${event.level}: ${event.message}`
    case 'settings.failed':
      return `${head} ${settingsProblemText(event.problem)}`
    case 'settings.recovered':
      return `${head} ${SETTINGS_RECOVERED_TEXT}`
    case 'grant.revoked':
      return `${head} ${event.grantId} ${event.reason}${who}`
    case 'input.requested':
      return `${head} ${event.inputId}${event.callId === null ? '' : ` ${event.callId}`} ${event.kind} from "${event.server}": ${event.message}${event.url === undefined ? '' : ` ${event.url}`}`
    case 'input.resolved':
      return `${head} ${event.inputId} ${event.action}${event.reason === undefined ? '' : `: ${event.reason}`}${who}`
    case 'prompt.got':
      return `${head} ${event.server} ${event.prompt} ${jsonText(event.arguments)}${who}`
    case 'prompt.failed':
      return `${head} ${event.server} ${event.prompt} ${event.error.code}: ${event.error.message}${who}`
    case 'resource.read_failed':
      return `${head} ${event.server} ${event.uri} ${event.error.code}: ${event.error.message}${who}`
    case 'resource.read':
    case 'resource.subscribed':
    case 'resource.unsubscribed':
    case 'resource.updated':
      return `${head} ${event.server} ${event.uri}${who}`
    case 'server.log':
      return `${head} ${event.server} ${event.level}${event.logger === null ? '' : ` ${event.logger}`}: ${jsonText(event.data).slice(0, 200)}`
    case 'app.message':
    case 'app.model_context':
    case 'app.log':
    case 'app.link_opened':
    case 'app.download':
      return `${head} ${event.callId} ${appEventText(event)}${who}`
  }
}

function displayNote(display: DisplayResult): string {
  if (display.type === 'mcp_app') return ` [MCP App ${display.resourceUri}]`
  return display.appNotShown === undefined ? '' : ` [${display.appNotShown}]`
}

/** The event as `--json` prints it: an App display without its HTML, with its size instead. */
export function eventForJson(event: TranscriptEvent): unknown {
  if (event.type !== 'call.result' || event.display.type !== 'mcp_app') return event
  const { html, ...display } = event.display
  return { ...event, display: { ...display, htmlBytes: Buffer.byteLength(html, 'utf8') } }
}

export function attachPlain(
  ctx: CliContext,
  session: string | undefined,
  options: { json: boolean },
): Promise<number> {
  return new Promise((resolve) => {
    const client = new StreamClient({
      stateDir: ctx.stateDir,
      session,
      client: { kind: 'attach', label: `ferry attach (pid ${process.pid})` },
      // A line printer has no way to answer a confirmation: never count it as an answerer.
      readOnly: true,
      onEvent: (event) =>
        ctx.out(options.json ? jsonText(eventForJson(event)) : describeEvent(event)),
      onStatus: (status) => ctx.err(`ferry: ${status}`),
      onAttached: (session, headSeq) =>
        ctx.err(`ferry: attached to session ${session} at seq ${headSeq}`),
      onFatal: (message) => {
        ctx.err(`ferry: ${message}`)
        detach(2)
      },
    })
    const detach = (code = 0) => {
      client.stop()
      resolve(code)
    }
    // A closed pipe (`| head`) ends the attach quietly.
    ctx.io.stdout.on('error', () => detach(0))
    ctx.io.onInterrupt(() => detach(0))
    client.start()
  })
}
