// Prompts and resources for one gateway client, from the ready servers its token reaches: prompts
// under qualified names (`mcp_{server}_{prompt}`, or the server's own for an `--unprefixed`
// token), resources and templates under their own URIs, each get, read or completion sent to the
// server that offers it.

import {
  INTERNAL_ERROR,
  INVALID_PARAMS,
  ProtocolError,
  ResourceNotFoundError,
  SdkError,
  SdkErrorCode,
  UriTemplate,
  type Resource,
  type ResourceTemplateType,
  type Server,
  type ServerCapabilities,
} from '@modelcontextprotocol/server'
import { randomHex } from '../ids.js'
import type { ClientRef } from '../protocol/index.js'
import type { CatalogApi, SessionsApi } from '../service/ferry-service.js'
import { qualifiedPrompts, type NamedPrompt } from '../core/offerings.js'
import { ErrorCode, FerryError, errorMessage } from '../errors.js'
import type { ClientView } from './client-view.js'
import { gatewayClientRef } from './gateway-call.js'
import type { GatewayFollows, Session } from './resource-follows.js'
import type { GatewayElicitation } from './elicitation.js'
import type { Log } from '../log.js'

/** What the gateway declares for the handlers below. */
export const PROMPTS_RESOURCES_CAPABILITIES = {
  prompts: { listChanged: true },
  resources: { listChanged: true },
  completions: {},
} satisfies ServerCapabilities

/** A prompt as one client sees it: `name` is what it lists, `qualified` Ferry's own name. */
export interface ClientPrompt extends NamedPrompt {
  qualified: string
}

/** The prompts a client sees, under the names it knows them by. */
export function promptsFor(catalog: CatalogApi, view: ClientView): ClientPrompt[] {
  return qualifiedPrompts(catalog.offerings.all())
    .filter((item) => view.reaches(item.server))
    .map((item) => ({
      ...item,
      qualified: item.name,
      name: view.grant.unprefixed ? item.prompt.name : item.name,
    }))
}

export interface ResourceClaims {
  /** Each URI, with the servers that list it (or whose tools name it as their App) in order. */
  uris: Map<string, { servers: string[]; resource: Resource | undefined }>
  /** Each URI template, with the servers that list it in order. */
  templates: Map<string, { servers: string[]; template: ResourceTemplateType }>
}

/**
 * Who offers which resource among the ready servers `reaches` accepts, in settings order. A
 * server's claims are what it lists and the `ui://` resources of its model-visible tools; the
 * first claimant of a URI serves it.
 */
export function resourceClaims(
  catalog: CatalogApi,
  reaches: (server: string) => boolean,
): ResourceClaims {
  const claims: ResourceClaims = { uris: new Map(), templates: new Map() }
  const uiOf = new Map<string, string[]>()
  for (const entry of catalog.registry()) {
    if (entry.uiResourceUri === null || !entry.visibility.includes('model')) continue
    uiOf.set(entry.server, [...(uiOf.get(entry.server) ?? []), entry.uiResourceUri])
  }
  for (const { server, offered } of catalog.offerings.all()) {
    if (!reaches(server)) continue
    const claim = (uri: string, resource: Resource | undefined) => {
      const known = claims.uris.get(uri)
      if (known === undefined) claims.uris.set(uri, { servers: [server], resource })
      else if (!known.servers.includes(server)) known.servers.push(server)
    }
    for (const resource of offered.resources) claim(resource.uri, resource)
    for (const uri of uiOf.get(server) ?? []) claim(uri, undefined)
    for (const template of offered.resourceTemplates) {
      const known = claims.templates.get(template.uriTemplate)
      if (known === undefined)
        claims.templates.set(template.uriTemplate, { servers: [server], template })
      else if (!known.servers.includes(server)) known.servers.push(server)
    }
  }
  return claims
}

/** The server that serves `uri` to this client: its first claimant, else a matching template's. */
export function ownerOf(claims: ResourceClaims, uri: string): string | undefined {
  const claimed = claims.uris.get(uri)?.servers[0]
  if (claimed !== undefined) return claimed
  // Templates are tried in the order they were claimed, which is settings order.
  for (const [uriTemplate, { servers }] of claims.templates) {
    if (matches(uriTemplate, uri)) return servers[0]
  }
  return undefined
}

function matches(uriTemplate: string, uri: string): boolean {
  try {
    return new UriTemplate(uriTemplate).match(uri) !== null
  } catch {
    // A template the server wrote badly matches nothing.
    return false
  }
}

/** An upstream's own JSON-RPC error passes on as it came; anything else says what went wrong. */
function upstreamFailure(error: unknown, what: string): ProtocolError {
  if (error instanceof ProtocolError) return error
  if (error instanceof FerryError && error.cause instanceof ProtocolError) return error.cause
  if (error instanceof FerryError && error.code === ErrorCode.BadRequest) {
    return new ProtocolError(INVALID_PARAMS, error.message)
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
    return new ProtocolError(INTERNAL_ERROR, `${what} got no answer in time: ${error.message}`)
  }
  return new ProtocolError(INTERNAL_ERROR, `${what} failed: ${errorMessage(error)}`)
}

/**
 * Registers prompts/list, prompts/get, resources/list, resources/templates/list, resources/read
 * and completion/complete; with `follows` (a legacy session's server), resources/subscribe and
 * resources/unsubscribe as well.
 */
export function servePromptsAndResources(
  server: Server,
  {
    catalog,
    sessions,
    elicitation,
    log,
  }: { catalog: CatalogApi; sessions: SessionsApi; elicitation: GatewayElicitation; log: Log },
  view: ClientView,
  follows?: GatewayFollows,
): void {
  const scoped = () => resourceClaims(catalog, (name) => view.reaches(name))

  const session = () => sessions.resolve(view.grant.session ?? undefined)
  const client = gatewayClientRef(view)

  server.setRequestHandler('prompts/list', () => ({
    prompts: promptsFor(catalog, view).map(({ name, prompt }) => ({ ...prompt, name })),
  }))

  server.setRequestHandler('prompts/get', async (request, ctx) => {
    const { name } = request.params
    const found = promptsFor(catalog, view).find((item) => item.name === name)
    if (found === undefined) {
      throw new ProtocolError(
        INVALID_PARAMS,
        `no prompt named "${name}"; call prompts/list to see the prompts this client may get`,
      )
    }
    try {
      // The server's questions before it answers go to the client as a call's do.
      return await elicitation.servePrompt({
        sessions,
        log,
        view,
        server,
        name,
        ctx,
        run: async (runCtx, askers) => {
          // Recorded in the token's session, as a get from Ferry's own clients is.
          const got = await sessions.getPrompt(
            await session(),
            { name: found.qualified, arguments: request.params.arguments ?? {} },
            client,
            runCtx.mcpReq.signal,
            askers,
          )
          return got.result
        },
      })
    } catch (error) {
      throw upstreamFailure(error, `prompt "${name}" of server "${found.server}"`)
    }
  })

  server.setRequestHandler('resources/list', () => {
    const resources: Resource[] = []
    for (const { resource } of scoped().uris.values())
      if (resource !== undefined) resources.push(resource)
    return { resources }
  })

  server.setRequestHandler('resources/templates/list', () => ({
    resourceTemplates: [...scoped().templates.values()].map(({ template }) => template),
  }))

  server.setRequestHandler('resources/read', async (request, ctx) => {
    const { uri } = request.params
    const owner = ownerOf(scoped(), uri)
    if (owner === undefined) {
      throw new ResourceNotFoundError(
        uri,
        `no resource "${uri}" is served to this client; call resources/list or resources/templates/list to see what it may read`,
      )
    }
    try {
      return await sessions.readResource(await session(), owner, uri, client, ctx.mcpReq.signal)
    } catch (error) {
      throw upstreamFailure(error, `resource "${uri}" of server "${owner}"`)
    }
  })

  if (follows !== undefined) {
    serveSubscriptions(server, { sessions, follows, view, scoped, session, client })
  }

  server.setRequestHandler('completion/complete', async (request, ctx) => {
    const { ref, argument, context } = request.params
    const target = completionTarget(ref, promptsFor(catalog, view), scoped())
    try {
      const { values, total, hasMore } = await sessions.complete(
        {
          server: target.server,
          ref: target.ref,
          argument,
          ...(context?.arguments === undefined
            ? {}
            : { context: { arguments: context.arguments } }),
        },
        ctx.mcpReq.signal,
      )
      return { completion: { values, ...(total === null ? {} : { total }), hasMore } }
    } catch (error) {
      throw upstreamFailure(error, `a completion from server "${target.server}"`)
    }
  })
}

type CompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string }

/**
 * The server that completes `ref` for this client, and the ref as that server knows it: a prompt
 * by the name the client sees it under, a template by its own URI template (or a URI it serves).
 */
function completionTarget(
  ref: CompletionRef,
  prompts: ClientPrompt[],
  claims: ResourceClaims,
): { server: string; ref: CompletionRef } {
  if (ref.type === 'ref/prompt') {
    const found = prompts.find((item) => item.name === ref.name)
    if (found === undefined) {
      throw new ProtocolError(
        INVALID_PARAMS,
        `no prompt named "${ref.name}"; call prompts/list to see the prompts this client may complete`,
      )
    }
    return { server: found.server, ref: { type: 'ref/prompt', name: found.prompt.name } }
  }
  const owner = claims.templates.get(ref.uri)?.servers[0] ?? ownerOf(claims, ref.uri)
  if (owner === undefined) {
    throw new ProtocolError(
      INVALID_PARAMS,
      `no resource or template "${ref.uri}" is served to this client; call resources/templates/list to see what it may complete`,
    )
  }
  return { server: owner, ref }
}

/**
 * resources/subscribe and resources/unsubscribe of one legacy session: the token's session follows
 * the resource for it, and the session's `resource.updated` events of what this client follows
 * reach it, until it unsubscribes or its session ends.
 */
function serveSubscriptions(
  server: Server,
  c: {
    sessions: SessionsApi
    follows: GatewayFollows
    view: ClientView
    scoped: () => ResourceClaims
    session: () => Promise<Session>
    client: ClientRef
  },
): void {
  /** What this client follows: each URI with the server that serves it. */
  const followed = new Map<string, { server: string; session: Session }>()
  let stopListening: (() => void) | undefined
  const listen = (session: Session) => {
    stopListening ??= session.subscribe(session.info().headSeq, (event) => {
      if (event.type !== 'resource.updated') return
      if (followed.get(event.uri)?.server !== event.server) return
      server.sendResourceUpdated({ uri: event.uri }).catch(() => {})
    })
  }
  /** This client, as the holder of its follows. */
  const holder = randomHex(8)

  server.setRequestHandler('resources/subscribe', async (request) => {
    const { uri } = request.params
    const owner = ownerOf(c.scoped(), uri)
    if (owner === undefined) {
      throw new ResourceNotFoundError(
        uri,
        `no resource "${uri}" is served to this client; call resources/list or resources/templates/list to see what it may subscribe to`,
      )
    }
    if (followed.has(uri)) return {}
    const session = await c.session()
    try {
      await c.follows.hold(holder, session, owner, uri, c.client)
    } catch (error) {
      throw upstreamFailure(error, `subscribing to "${uri}" of server "${owner}"`)
    }
    followed.set(uri, { server: owner, session })
    listen(session)
    return {}
  })

  server.setRequestHandler('resources/unsubscribe', async (request) => {
    const { uri } = request.params
    const known = followed.get(uri)
    // Unsubscribing from what the client does not follow changes nothing.
    if (known === undefined) return {}
    followed.delete(uri)
    await c.follows.release(holder, known.session, known.server, uri, c.client).catch(() => {})
    return {}
  })

  const closed = server.onclose
  server.onclose = () => {
    closed?.()
    stopListening?.()
    for (const [uri, { server: owner, session }] of followed) {
      void c.follows.release(holder, session, owner, uri, c.client).catch(() => {})
    }
    followed.clear()
  }
}
