// What a live MCP App may ask, each answered for its tab: tool calls of its own server through the
// one call path (confirmations, trust, grants, timeouts, the input broker), reads and listings of
// its server's resources, and its messages, model context, log lines, links and downloads, each
// recorded in the transcript as the tab's doing; all within the App's request budget.

import type { Ferry } from '../core/ferry.js'
import { ErrorCode, FerryError } from '../errors.js'
import type { Log } from '../log.js'
import {
  APP_DOWNLOAD_BYTES_LIMIT,
  type AppRequest,
  type ClientRef,
  type TranscriptEventBody,
} from '../protocol/index.js'
import type { Discovered } from '../mcp/discovery.js'
import { AppBudget } from './app-budget.js'
import type { LiveApp } from './app-instances.js'
import type { SessionCalls } from './session-calls.js'
import type { OfferingRunner } from './offering-runner.js'

/** What goes back to the App, and the id of the call a `tools/call` made. */
export interface AppAnswer {
  result: unknown
  callId?: string
}

function mebibytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`
}

/** Refuses any link but an http or https URL. */
function checkLink(url: string): void {
  let protocol: string
  try {
    protocol = new URL(url).protocol
  } catch {
    throw new FerryError(
      ErrorCode.BadRequest,
      'the link is not an absolute URL; an App may open only http and https links',
    )
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new FerryError(
      ErrorCode.Forbidden,
      `an App may open only http and https links; a ${protocol} link is refused`,
    )
  }
}

export class AppRequests {
  readonly budget: AppBudget

  constructor(
    private readonly ferry: Ferry,
    private readonly calls: SessionCalls,
    private readonly offerings: OfferingRunner,
    log: Log,
  ) {
    this.budget = new AppBudget(log)
  }

  /** Answers one request of a live App, made through its tab `client`. */
  async handle(app: LiveApp, request: AppRequest, client: ClientRef): Promise<AppAnswer> {
    this.budget.take(app.session, app.callId)
    const record = async (body: TranscriptEventBody): Promise<AppAnswer> => {
      await app.session.emit(body, client)
      return { result: {} }
    }
    const { callId } = app
    switch (request.method) {
      case 'tools/call':
        return this.callTool(app, request.params, client)
      case 'resources/read': {
        const { uri } = request.params
        const read = this.offerings.readResource(app.session, app.server, uri, client, app.signal)
        return { result: await read }
      }
      case 'resources/list':
        return { result: { resources: this.listed(app, request.params.cursor).resources } }
      case 'resources/templates/list': {
        const listed = this.listed(app, request.params.cursor)
        return { result: { resourceTemplates: listed.resourceTemplates } }
      }
      case 'ui/message': {
        // Named by the daemon, so no view has to find the App's call to say whose words they are.
        const { role, content } = request.params
        return record({
          type: 'app.message',
          callId,
          tool: app.tool,
          server: app.server,
          role,
          content,
        })
      }
      case 'ui/update-model-context': {
        const { content, structuredContent } = request.params
        return record({
          type: 'app.model_context',
          callId,
          ...(content === undefined ? {} : { content }),
          ...(structuredContent === undefined ? {} : { structuredContent }),
        })
      }
      case 'notifications/message': {
        const { level, logger, data } = request.params
        return record({
          type: 'app.log',
          callId,
          level,
          ...(logger === undefined ? {} : { logger }),
          data,
        })
      }
      case 'ui/open-link':
        checkLink(request.params.url)
        return record({ type: 'app.link_opened', callId, url: request.params.url })
      case 'ui/download-file': {
        const { files } = request.params
        const bytes = files.reduce((sum, file) => sum + file.bytes, 0)
        if (bytes > APP_DOWNLOAD_BYTES_LIMIT) {
          throw new FerryError(
            ErrorCode.PayloadTooLarge,
            `a download may hold at most ${mebibytes(APP_DOWNLOAD_BYTES_LIMIT)} in all; these ${files.length} file${files.length === 1 ? '' : 's'} hold ${mebibytes(bytes)}`,
          )
        }
        return record({ type: 'app.download', callId, files })
      }
    }
  }

  private async callTool(
    app: LiveApp,
    params: Extract<AppRequest, { method: 'tools/call' }>['params'],
    client: ClientRef,
  ): Promise<AppAnswer> {
    // The App's end cancels the call.
    const { result, callId } = await this.calls.call({
      session: app.session.id,
      tool: params.name,
      arguments: params.arguments ?? {},
      client,
      signal: app.signal,
      app: { parentCallId: app.callId, server: app.server },
    })
    return { result, callId }
  }

  /** What the App's server listed; Ferry reads every page itself, so there is no cursor to follow. */
  private listed(app: LiveApp, cursor: string | undefined): Discovered {
    if (cursor !== undefined) {
      throw new FerryError(
        ErrorCode.BadRequest,
        `Ferry lists server "${app.server}"'s resources in one page; there is no next page to ask for`,
      )
    }
    // An unknown or stopped server is named here.
    this.ferry.offerings.resources(app.server)
    const offered = this.ferry.offerings.all().find((entry) => entry.server === app.server)
    if (offered === undefined) {
      throw new FerryError(
        ErrorCode.ServerNotReady,
        `server "${app.server}" is not ready; its resources can be listed once it is`,
      )
    }
    return offered.offered
  }
}
