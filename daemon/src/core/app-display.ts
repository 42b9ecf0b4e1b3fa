// How a finished call shows: its MCP App when the tool names one, the result is not an error and
// the App resource loads and checks out (whether or not the server declares the extension);
// otherwise plain, with the reason when there was an App to show. The verdict becomes the tool's
// `appNotShown`.

import { appDisplay, checkApp, type AppLoad } from '../apps/app-resource.js'
import { DEFAULT_APP_RESOURCE_TIMEOUT_MS } from '../config/defaults.js'
import type { ServerConfig } from '../config/types.js'
import type { Log } from '../log.js'
import type { Connection } from '../mcp/connection.js'
import type { CallToolResult, DisplayResult } from '../protocol/index.js'
import type { RegistryEntry } from '../tools/registry.js'

export class AppDisplay {
  constructor(
    /** The connection of a ready server, or an error saying why there is none. */
    private readonly connection: (server: string) => Connection,
    /** The connection of a server, if it has one. */
    private readonly existing: (server: string) => Connection | undefined,
    private readonly config: (server: string) => ServerConfig | undefined,
    private readonly log: Log,
  ) {}

  /** The display of `entry`'s call with `args` that returned `result`. Never throws. */
  async display(
    entry: RegistryEntry,
    args: Record<string, unknown>,
    result: CallToolResult,
    signal: AbortSignal,
  ): Promise<DisplayResult> {
    if (entry.uiResourceUri === null || result.isError === true) return { type: 'plain' }
    const resourceUri = entry.uiResourceUri
    const load: AppLoad = {
      serverName: entry.server,
      serverTool: entry.tool,
      resourceUri,
      toolInput: args,
      toolResult: result,
      timeoutMs: this.config(entry.server)?.appResourceTimeoutMs ?? DEFAULT_APP_RESOURCE_TIMEOUT_MS,
      signal,
      read: (uri, options) => this.connection(entry.server).readResource(uri, options),
      listedMeta: () =>
        this.existing(entry.server)?.discovered.resources.find((r) => r.uri === resourceUri)?._meta,
    }
    const checked = await checkApp(load)
    // A cancelled call says nothing about the App.
    if (!signal.aborted) this.existing(entry.server)?.appChecks.record(resourceUri, checked)
    const display = appDisplay(load, checked)
    if (display.type === 'plain') {
      this.log({
        kind: 'call.app_not_shown',
        server: entry.server,
        tool: entry.tool,
        resourceUri,
        reason: display.appNotShown,
      })
    }
    return display
  }
}
