// What ready servers offer besides tools: their prompts (under qualified names), resources and
// templates as listed, and the gets, reads and completions that go to them.

import type {
  CompleteRequest,
  CompleteResult,
  GetPromptResult,
  ReadResourceResult,
} from '@modelcontextprotocol/client'
import { ErrorCode, FerryError } from '../errors.js'
import type { CallAsker } from '../mcp/call-asker.js'
import type { CallTimer } from '../mcp/call-timer.js'
import type { Connection } from '../mcp/connection.js'
import type { Discovered } from '../mcp/discovery.js'
import type { ResourcesResponse } from '../protocol/index.js'
import {
  qualifiedPrompts,
  resourceInfos,
  type NamedPrompt,
  type ServerOfferings,
} from './offerings.js'

export class Offerings {
  constructor(
    /** Every connection, in settings order. */
    private readonly connections: () => Connection[],
    /** The connection of a ready server, or an error saying why there is none. */
    private readonly connection: (server: string) => Connection,
    /** Throws why a name its server listed cannot be used now, when that server is down. */
    private readonly serverDown: (
      qualifiedName: string,
      listed: (offered: Discovered) => readonly { name: string }[],
    ) => void,
  ) {}

  /** What every ready server lists (prompts and resources among it), in settings order. */
  all(): ServerOfferings[] {
    return this.connections()
      .filter((connection) => connection.status === 'ready')
      .map((connection) => ({ server: connection.name, offered: connection.discovered }))
  }

  /** The prompts of ready servers under qualified names (of `server` only, when given). */
  prompts(server?: string): NamedPrompt[] {
    if (server !== undefined) this.connection(server)
    return qualifiedPrompts(this.all()).filter(
      (item) => server === undefined || item.server === server,
    )
  }

  /** The prompt of a qualified name, or why there is none: not found, or its server is down. */
  prompt(qualifiedName: string): NamedPrompt {
    const found = this.prompts().find((item) => item.name === qualifiedName)
    if (found !== undefined) return found
    this.serverDown(qualifiedName, (offered) => offered.prompts)
    throw new FerryError(
      ErrorCode.NotFound,
      `no prompt named "${qualifiedName}"; run \`ferry prompts\` to see the qualified names`,
    )
  }

  /** The resources and templates of ready servers (of `server` only, when given). */
  resources(server?: string): ResourcesResponse {
    if (server !== undefined) this.connection(server)
    return resourceInfos(this.all(), server)
  }

  /**
   * Gets a prompt from `server` by the name the server lists it under; the server's questions
   * before it answers go to `asker` while `timer` waits (see Connection.getPrompt).
   */
  getPrompt(
    server: string,
    name: string,
    args: Record<string, string> | undefined,
    options: { signal: AbortSignal; asker?: CallAsker | undefined; timer?: CallTimer | undefined },
  ): Promise<GetPromptResult> {
    return this.connection(server).getPrompt(name, args, options)
  }

  /** Reads a resource from `server`. */
  readResource(server: string, uri: string, signal: AbortSignal): Promise<ReadResourceResult> {
    return this.connection(server).readResource(uri, { signal })
  }

  /** Completion values from `server`; empty when it does not declare completions. */
  complete(
    server: string,
    params: CompleteRequest['params'],
    signal: AbortSignal,
  ): Promise<CompleteResult> {
    return this.connection(server).complete(params, { signal })
  }
}
