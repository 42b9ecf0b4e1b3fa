// The daemon's hono app: guards on every route, security headers, the sandbox host name (which
// serves the App proxy and nothing else), the static WebShell before auth (it holds no data), and
// the token-protected API, and the gateway's `/mcp` (its own tokens).

import type { HttpBindings } from '@hono/node-server'
import { Hono } from 'hono'
import { ErrorCode, FerryError } from '../errors.js'
import type { Log } from '../log.js'
import { apiRoutes, type ApiDeps } from './api-routes.js'
import { respondWithError } from './error-response.js'
import type { ConnectionGuard } from './connection-guard.js'
import { bearerAuth, hostGuard, originGuard } from './guards.js'
import { mountOAuthCallback } from './sign-in-routes.js'
import { mountMcpRoute, type McpRouteDeps } from './mcp-route.js'
import { sandboxSite } from './sandbox-site.js'
import type { StaticFile } from './static-files.js'

export interface AppDeps extends ApiDeps {
  token: string
  log: Log
  /** Exact Host header values the WebShell and API answer to, e.g. `127.0.0.1:4123`. */
  hosts: () => ReadonlySet<string>
  /** Exact origins of the WebShell, e.g. `http://127.0.0.1:4123`. */
  origins: () => ReadonlySet<string>
  staticFiles: ReadonlyMap<string, StaticFile>
  /** Exact Host header of the sandbox origin, e.g. `localhost:4123`. */
  sandboxHost: () => string
  /** The sandbox proxy page, read once at start; undefined if it is not installed. */
  sandboxPage: Uint8Array | undefined
  /** Told about each connection that carried a request with the right token. */
  connections?: ConnectionGuard
  /** The gateway behind `/mcp`; absent, `/mcp` is not served. */
  mcp?: Omit<McpRouteDeps, 'adminToken' | 'connections'>
}

/** The WebShell may frame the sandbox origin and nothing else. */
function webshellCsp(sandboxHost: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "media-src 'self' data:",
    "connect-src 'self'",
    `frame-src ${sandboxHost === '' ? "'none'" : `http://${sandboxHost}`}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
}

export function createApp(deps: AppDeps): Hono {
  const app = new Hono()
  app.onError((error, c) => respondWithError(c, error, deps.log))
  app.notFound((c) =>
    respondWithError(c, new FerryError(ErrorCode.NotFound, 'not found'), deps.log),
  )

  // Headers first, so refusals from the guards carry them too.
  app.use('*', async (c, next) => {
    await next()
    // Set in place: `c.header` on a finished answer rebuilds the Response once per header.
    const headers = c.res.headers
    headers.set('X-Content-Type-Options', 'nosniff')
    headers.set('Referrer-Policy', 'strict-origin')
    headers.set('Cache-Control', 'no-store')
  })
  // The sandbox host answers everything itself; only the WebShell's own host gets past it.
  app.use(
    '*',
    sandboxSite({
      log: deps.log,
      sandboxHost: deps.sandboxHost,
      origins: deps.origins,
      webshellUrl: () => deps.status().url,
      page: deps.sandboxPage,
    }),
  )
  app.use('*', hostGuard(deps.hosts), originGuard(deps.origins))

  app.get('*', async (c, next) => {
    const file = deps.staticFiles.get(c.req.path)
    if (file === undefined) return next()
    c.header('Content-Security-Policy', webshellCsp(deps.sandboxHost()))
    return c.body(file.body as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': file.contentType })
  })

  mountOAuthCallback(app, () => deps.catalog.signIn)
  if (deps.mcp !== undefined) {
    mountMcpRoute(app, { ...deps.mcp, adminToken: deps.token, connections: deps.connections })
  }
  app.use('/api/*', bearerAuth(deps.token), async function authenticated(c, next) {
    const socket = (c.env as Partial<HttpBindings> | undefined)?.incoming?.socket
    if (socket !== undefined) deps.connections?.authenticated(socket)
    await next()
  })
  app.route('/api', apiRoutes(deps))
  return app
}
