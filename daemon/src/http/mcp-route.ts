// `/mcp`, the gateway's one URL: no browser may speak to it (any Origin is refused), and only a
// gateway token opens it; Ferry's admin token, which answers confirmations, never does.

import type { HttpBindings } from '@hono/node-server'
import type { Context, Hono } from 'hono'
import type { GatewaySettings } from '../config/types.js'
import type { Gateway } from '../gateway/endpoint.js'
import { jsonRpcError } from '../gateway/request-body.js'
import type { GatewayTokenStore } from '../gateway/token-store.js'
import type { ConnectionGuard } from './connection-guard.js'
import { tokenMatcher } from './guards.js'

export interface McpRouteDeps {
  gateway: Gateway
  tokens: GatewayTokenStore
  adminToken: string
  settings: () => GatewaySettings
  connections?: ConnectionGuard | undefined
}

/** MCP's generic server error code, used for refusals before any JSON-RPC is read. */
const REFUSED = -32000

function unauthorized(message: string): Response {
  const response = jsonRpcError(401, REFUSED, message)
  response.headers.set('WWW-Authenticate', 'Bearer realm="ferry-gateway"')
  return response
}

export function mountMcpRoute(app: Hono, deps: McpRouteDeps): void {
  const isAdminToken = tokenMatcher(deps.adminToken)
  app.all('/mcp', async (c: Context) => {
    if (c.req.header('origin') !== undefined) {
      return jsonRpcError(403, REFUSED, 'forbidden origin: /mcp serves MCP clients, not web pages')
    }
    if (!deps.settings().enabled) {
      return jsonRpcError(
        404,
        REFUSED,
        'the gateway is off: gateway.enabled is false in your settings',
      )
    }
    const header = c.req.header('authorization') ?? ''
    const match = /^Bearer ([A-Za-z0-9_-]{1,256})$/.exec(header)
    if (match === null) {
      return unauthorized(
        'missing gateway token: send Authorization: Bearer <token>; create one with `ferry gateway token create <client-name>`',
      )
    }
    const presented = match[1] as string
    const grant = deps.tokens.verify(presented)
    // Only Ferry's gateway tokens verify, so the admin token is looked for among the refused.
    if (grant === undefined && isAdminToken(presented)) {
      return unauthorized(
        "this is Ferry's admin token, which /mcp never accepts; create a gateway token with `ferry gateway token create <client-name>`",
      )
    }
    if (grant === undefined) {
      return unauthorized(
        'unknown or revoked gateway token; see `ferry gateway token list`, or create one with `ferry gateway token create <client-name>`',
      )
    }
    const { incoming, outgoing } = (c.env as Partial<HttpBindings> | undefined) ?? {}
    if (incoming !== undefined) deps.connections?.authenticated(incoming.socket)
    const connection =
      incoming === undefined || outgoing === undefined
        ? undefined
        : {
            cut: () => incoming.socket.destroy(),
            onClose: (listener: () => void) => outgoing.once('close', listener),
          }
    return deps.gateway.fetch(c.req.raw, grant, incoming, connection)
  })
}
