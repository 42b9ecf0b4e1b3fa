// What one gateway client sees: the registry's model-visible tools of the servers its token names,
// under qualified names (or, for an `--unprefixed` token of one server, the server's own names),
// and the way back from the name it calls to the registry entry.

import {
  CLIENT_CAPABILITIES_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  type ClientCapabilities,
  type Server,
  type ServerContext,
  type Tool,
} from '@modelcontextprotocol/server'
import { matchesAny } from '../config/matches-any.js'
import type { CatalogApi } from '../service/ferry-service.js'
import { ErrorCode, FerryError } from '../errors.js'
import { isModelVisible, type RegistryEntry } from '../tools/registry.js'
import type { GatewayGrant } from './token-store.js'

export class ClientView {
  constructor(
    private readonly catalog: CatalogApi,
    readonly grant: GatewayGrant,
  ) {}

  /** Whether the token reaches `server`. */
  reaches(server: string): boolean {
    return matchesAny(server, this.grant.servers)
  }

  /** The name the client knows a tool by. */
  nameOf(entry: RegistryEntry): string {
    return this.grant.unprefixed ? entry.tool : entry.name
  }

  entries(): RegistryEntry[] {
    return this.catalog
      .registry()
      .filter((entry) => isModelVisible(entry) && this.reaches(entry.server))
  }

  /** The tools as MCP lists them: the server's definition under the client's name for it. */
  tools(): Tool[] {
    return this.entries().map((entry) => ({ ...entry.definition, name: this.nameOf(entry) }))
  }

  /**
   * The registry entry behind a name the client called, or the error `Ferry.lookup` gives; a tool
   * of a server outside the token's scope does not exist for this client.
   */
  lookup(name: string): RegistryEntry {
    const qualified = this.grant.unprefixed
      ? this.catalog.registry().find((entry) => entry.tool === name && this.reaches(entry.server))
          ?.name
      : name
    const outOfScope = () =>
      new FerryError(
        ErrorCode.ToolNotFound,
        `no tool named "${name}"; call tools/list to see the tools this client may call`,
      )
    if (qualified === undefined) throw outOfScope()
    let entry: RegistryEntry
    try {
      entry = this.catalog.lookup(qualified)
    } catch (error) {
      // Not found, or of a server that is down: only a server in scope may say why.
      const known = this.catalog.registry().find((candidate) => candidate.name === qualified)
      if (known !== undefined && !this.reaches(known.server)) throw outOfScope()
      if (error instanceof FerryError && error.code === ErrorCode.ToolNotFound) throw outOfScope()
      throw error
    }
    if (!this.reaches(entry.server)) throw outOfScope()
    return entry
  }
}

/**
 * The capabilities the client declared for this request: a 2026-07-28 request carries them in its
 * envelope, a legacy session declared them once, at `initialize`.
 */
export function requestCapabilities(
  server: Server,
  ctx: ServerContext,
): ClientCapabilities | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined
  return envelope?.[PROTOCOL_VERSION_META_KEY] !== undefined
    ? (envelope[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined)
    : server.getClientCapabilities()
}
