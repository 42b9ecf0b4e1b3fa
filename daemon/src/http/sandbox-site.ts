// Everything the daemon answers under its sandbox host name (`localhost:<port>`): the static App
// proxy page with the App's CSP, a redirect from `/` to the WebShell, and a refusal for anything
// else. A document on the sandbox origin can therefore reach no API, no WebShell file and no
// stream, even where a policy would let it ask.

import type { MiddlewareHandler } from 'hono'
import { ErrorCode, FerryError } from '../errors.js'
import type { Log } from '../log.js'
import { respondWithError } from './error-response.js'
import { checkOrigin } from './guards.js'
import { buildAppCsp, cspFromQuery } from './sandbox-csp.js'

export const SANDBOX_PROXY_PATH = '/sandbox-proxy'

export interface SandboxSiteDeps {
  log: Log
  /** Exact Host header of the sandbox origin, e.g. `localhost:4123`. */
  sandboxHost: () => string
  /** The WebShell origins: the only Origin accepted here, and the only frame ancestors. */
  origins: () => ReadonlySet<string>
  webshellUrl: () => string
  /** The proxy page, read once at start; undefined if it is not installed. */
  page: Uint8Array | undefined
}

export function sandboxSite(deps: SandboxSiteDeps): MiddlewareHandler {
  return async function sandboxSite(c, next) {
    const sandboxHost = deps.sandboxHost()
    const host = c.req.header('host')?.toLowerCase()
    if (sandboxHost === '' || host !== sandboxHost) return next()
    const ancestors = deps.origins()
    try {
      checkOrigin(c, ancestors)
      const readable = c.req.method === 'GET' || c.req.method === 'HEAD'
      if (readable && c.req.path === '/') return c.redirect(deps.webshellUrl(), 302)
      if (!readable || c.req.path !== SANDBOX_PROXY_PATH) {
        throw new FerryError(
          ErrorCode.Forbidden,
          `this host name serves only ${SANDBOX_PROXY_PATH}; the WebShell is at ${deps.webshellUrl()}`,
        )
      }
      if (deps.page === undefined) {
        throw new FerryError(ErrorCode.NotFound, 'the sandbox proxy page is not installed')
      }
      const csp = cspFromQuery(c.req.queries('csp'))
      c.header('Content-Security-Policy', buildAppCsp(csp, ancestors))
      return c.body(deps.page as Uint8Array<ArrayBuffer>, 200, {
        'Content-Type': 'text/html; charset=utf-8',
      })
    } catch (error) {
      // A refused proxy shows its reason inside the WebShell's frame, as inert text.
      const response = respondWithError(c, error, deps.log)
      response.headers.set(
        'Content-Security-Policy',
        `default-src 'none'; frame-ancestors ${[...ancestors].join(' ') || "'none'"}`,
      )
      return response
    }
  }
}
