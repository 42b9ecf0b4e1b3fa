// The REST API under /api (see docs/api.md). Handlers validate input, call the service (`FerryService`), and
// shape the response; they hold no state of their own.

import { signInRoutes } from './sign-in-routes.js'
import { Hono } from 'hono'
import type { CatalogApi, SessionsApi } from '../service/ferry-service.js'
import type { Log } from '../log.js'
import {
  workspaceApproveRequestSchema,
  type StatusResponse,
  type ServerInfo,
  type ToolInfo,
  type WorkspaceApproveResponse,
  type WorkspaceResponse,
} from '../protocol/index.js'
import { appRoutes } from './app-routes.js'
import { callRoutes } from './call-routes.js'
import { gatewayRoutes, type GatewayRouteDeps } from './gateway-routes.js'
import { grantRoutes } from './grant-routes.js'
import { jsonBody, parseBody } from './guards.js'
import { observeRoutes } from './observe-routes.js'
import { offeringRoutes } from './offering-routes.js'
import { replayRoutes } from './replay-routes.js'
import { inputRoutes } from './input-routes.js'
import { sessionRoutes } from './session-routes.js'

export interface ApiDeps {
  catalog: CatalogApi
  sessions: SessionsApi
  status: () => Omit<
    StatusResponse,
    | 'servers'
    | 'settingsFiles'
    | 'usingDemo'
    | 'warnings'
    | 'workspace'
    | 'defaultSession'
    | 'awaitingApproval'
    | 'filesWithoutServers'
    | 'settingsProblem'
    | 'gateway'
  >
  /** The gateway's URL and open legacy sessions, for the status. */
  gateway: () => { url: string; legacySessions: number }
  shutdown: () => void
  log: Log
  gatewayTokens: GatewayRouteDeps
}

export function apiRoutes(deps: ApiDeps): Hono {
  const { catalog } = deps
  const api = new Hono()

  api.get('/status', async (c) => {
    const servers = catalog.servers()
    const body: StatusResponse = {
      ...deps.status(),
      workspace: deps.sessions.workspace,
      defaultSession: (await deps.sessions.resolve(undefined)).id,
      settingsFiles: catalog.settings.files,
      usingDemo: catalog.settings.usingDemo,
      warnings: catalog.settings.warnings,
      servers: { total: servers.length, ready: servers.filter((s) => s.status === 'ready').length },
      awaitingApproval: servers.filter((s) => s.status === 'awaiting_approval').map((s) => s.name),
      filesWithoutServers: catalog.settings.filesWithoutServers,
      settingsProblem: catalog.settingsHealth.problem,
      gateway: {
        ...deps.gateway(),
        enabled: catalog.settings.gateway.enabled,
        phase: catalog.settings.gateway.phase,
      },
    }
    return c.json(body)
  })

  api.get('/servers', (c) => c.json<ServerInfo[]>(catalog.servers()))

  api.post('/servers/:name/reconnect', async (c) => {
    await catalog.reconnect(c.req.param('name'))
    return c.json<ServerInfo[]>(catalog.servers())
  })

  api.get('/tools', async (c) => {
    const server = c.req.query('server')
    if (c.req.query('refresh') === 'true') await catalog.refreshTools(server)
    return c.json<ToolInfo[]>(catalog.tools(server))
  })

  api.route('/', callRoutes(deps.sessions, deps.log))
  api.route('/', offeringRoutes(catalog, deps.sessions))
  api.route('/', sessionRoutes(deps.sessions))
  api.route('/', inputRoutes(deps.sessions))
  api.route('/', grantRoutes(deps.sessions))
  api.route('/', gatewayRoutes(deps.gatewayTokens))
  api.route('/', observeRoutes(catalog))
  api.route('/', replayRoutes(deps.sessions))
  api.route('/', signInRoutes(catalog.signIn))
  api.route('/', appRoutes(deps.sessions))

  api.post('/reload', async (c) => c.json(await catalog.reload()))

  api.get('/workspace', async (c) =>
    c.json<WorkspaceResponse>(await catalog.workspaceEntries(c.req.queries('server') ?? [])),
  )

  api.post('/workspace/approve', async (c) => {
    const body = parseBody(workspaceApproveRequestSchema, await jsonBody(c))
    return c.json<WorkspaceApproveResponse>(await catalog.approveWorkspace(body.entries))
  })

  api.post('/shutdown', (c) => {
    setImmediate(deps.shutdown)
    return c.json({ stopping: true })
  })

  return api
}
