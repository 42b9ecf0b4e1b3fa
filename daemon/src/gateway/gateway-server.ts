// The MCP server one gateway client talks to: a low-level SDK `Server` whose handlers read the
// long-lived registry and run calls through the sessions' call path. It is built per legacy
// session and per modern request, so building it is cheap and it holds nothing of its own.

import {
  INVALID_PARAMS,
  ProtocolError,
  Server,
  type ServerContext,
} from '@modelcontextprotocol/server'
import type { CatalogApi, SessionsApi } from '../service/ferry-service.js'
import type { Log } from '../log.js'
import type { GatewayElicitation } from './elicitation.js'
import { version } from '../version.js'
import { ClientView } from './client-view.js'
import {
  gatewayCall,
  gatewayClientRef,
  isRefusedArguments,
  isUnknownTool,
  type SessionCancels,
} from './gateway-call.js'
import { GatewayTasks } from './tasks.js'
import { PROMPTS_RESOURCES_CAPABILITIES, servePromptsAndResources } from './prompts-resources.js'
import type { GatewayFollows } from './resource-follows.js'
import { SEARCH_TOOL, searchingList, searchResult } from './tool-search.js'
import type { GatewaySettings } from '../config/types.js'
import type { GatewayGrant } from './token-store.js'

export interface GatewayServerDeps {
  catalog: CatalogApi
  sessions: SessionsApi
  log: Log
  webshellUrl: () => string
  /** See GatewayCallDeps. */
  waitingProgressMs?: number | undefined
  tasks: GatewayTasks
  elicitation: GatewayElicitation
  /** Resource subscriptions of legacy sessions. */
  follows: GatewayFollows
  settings: () => GatewaySettings
}

export const GATEWAY_INSTRUCTIONS = [
  "Ferry is the person's own MCP gateway: it runs their MCP servers and serves them here as one server.",
  'Tools and prompts are named mcp_{server}_{name} unless this client was set up for a single server;',
  'resources keep their URIs.',
  'A tool that is not read-only waits until the person allows it in Ferry (its WebShell tab or a terminal);',
  'while it waits, a request that carries a progress token gets progress every second.',
  'A call the person denies or cancels ends with an error result that says so; do not retry it unasked.',
  "Every call is recorded in the person's transcript.",
].join(' ')

/**
 * How the server's client is served: a legacy session (with its record of the client's cancels),
 * 2026-07-28 requests, or stateless legacy requests. Sessions and 2026-07-28 clients take resource
 * subscriptions: they have a stream to be told of updates on (the session's GET stream, a
 * `subscriptions/listen` stream); stateless legacy requests have none.
 */
export type ServedAs = { session: SessionCancels } | 'modern' | 'stateless'

export function gatewayServer(deps: GatewayServerDeps, grant: GatewayGrant, as: ServedAs): Server {
  const cancels = typeof as === 'object' ? as.session : undefined
  const view = new ClientView(deps.catalog, grant)
  const server = new Server(
    { name: 'ferry', title: 'Ferry', version },
    {
      capabilities: {
        tools: { listChanged: true },
        ...PROMPTS_RESOURCES_CAPABILITIES,
        // Legacy sessions subscribe with resources/subscribe, 2026-07-28 clients in their
        // subscriptions/listen filter (see listen-follows.ts).
        ...(as === 'stateless'
          ? {}
          : { resources: { ...PROMPTS_RESOURCES_CAPABILITIES.resources, subscribe: true } }),
        // A call's own log messages reach its client (see gateway-call).
        logging: {},
        extensions: GatewayTasks.extensions,
      },
      instructions: GATEWAY_INSTRUCTIONS,
      requestState: { verify: deps.elicitation.verify },
    },
  )
  // A searching client lists the search tool (and the pinned tools), and may call any of its tools.
  const searching = () => grant.toolSearch || deps.settings().toolSearch
  server.setRequestHandler('tools/list', () => ({
    tools: searching() ? searchingList(view, deps.settings().pinnedTools) : view.tools(),
  }))
  servePromptsAndResources(server, deps, view, cancels === undefined ? undefined : deps.follows)
  if (cancels !== undefined) forwardSessionLogs(server, deps.sessions, view)
  server.setRequestHandler('tools/call', async (request, ctx: ServerContext) => {
    const { name } = request.params
    const args = request.params.arguments ?? {}
    if (name === SEARCH_TOOL && searching()) return searchResult(view, args)
    try {
      const { taskSupport } = view.lookup(name)
      const taskOnly = GatewayTasks.refusalFor(server, ctx, taskSupport)
      if (taskOnly !== undefined) {
        await refused(deps, view, name, taskOnly.message)
        throw taskOnly
      }
      return await deps.tasks.call(server, ctx, view, taskSupport, (watch) =>
        deps.elicitation.serve({
          ...deps,
          view,
          server,
          name,
          args,
          ctx,
          run: (callCtx, hooks) =>
            gatewayCall(deps, view, name, args, callCtx, watch, cancels, hooks),
        }),
      )
    } catch (error) {
      if (!isUnknownTool(error) && !isRefusedArguments(error)) throw error
      await refused(deps, view, name, error.message)
      throw new ProtocolError(INVALID_PARAMS, error.message)
    }
  })
  deps.tasks.register(server, view)
  return server
}

/**
 * A legacy session hears its servers' log messages that belong to no call (those of a call go to
 * the call's client, see gateway-call), as its token's session records them, at the level it set
 * with `logging/setLevel`. A 2026-07-28 client has no stream outside its requests for them.
 */
function forwardSessionLogs(server: Server, sessions: SessionsApi, view: ClientView): void {
  let stop: (() => void) | undefined
  let closed = false
  sessions
    .resolve(view.grant.session ?? undefined)
    .then((session) => {
      if (closed) return
      stop = session.subscribe(session.info().headSeq, (event) => {
        if (event.type !== 'server.log' || event.callId !== null) return
        if (!view.reaches(event.server)) return
        const { level, data, logger } = event
        const params = { level, data, ...(logger === null ? {} : { logger }) }
        server.sendLoggingMessage(params, server.transport?.sessionId).catch(() => {})
      })
    })
    .catch(() => {})
  const closing = server.onclose
  server.onclose = () => {
    closing?.()
    closed = true
    stop?.()
  }
}

/** A call that named a tool and was refused before it ran is still part of the record. */
export async function refused(
  deps: GatewayServerDeps,
  view: ClientView,
  name: string,
  why: string,
): Promise<void> {
  try {
    const session = await deps.sessions.resolve(view.grant.session ?? undefined)
    await session.emit(
      { type: 'notice', level: 'warning', message: `gateway call to ${name} refused: ${why}` },
      gatewayClientRef(view),
    )
  } catch (error) {
    deps.log({ kind: 'gateway.refusal_unrecorded', tool: name, error: String(error) })
  }
}
