// What a tool declares about its MCP App: the `ui://` resource (`_meta.ui.resourceUri`, or the
// older flat `_meta["ui/resourceUri"]`), whether or not its server declares the Apps extension,
// and who may call it (`_meta.ui.visibility`). Anything unusable is ignored with a warning the
// connection reports once.

import type { Tool } from '@modelcontextprotocol/client'
import { RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server'

export type ToolVisibility = 'model' | 'app'
export const DEFAULT_VISIBILITY: readonly ToolVisibility[] = ['model', 'app']

export interface ToolUi {
  /** The `ui://` App resource the tool names; whether it can be shown is known only by reading it. */
  resourceUri: string | null
  visibility: ToolVisibility[]
  /** What was ignored and why, one sentence each, naming the tool. */
  warnings: string[]
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined
}

export function readToolUi(tool: Tool): ToolUi {
  const meta = record(tool._meta)
  const ui = record(meta?.ui)
  const warnings: string[] = []
  const name = JSON.stringify(tool.name)

  // An app-only tool is never the model's.
  let visibility = [...DEFAULT_VISIBILITY]
  const declared = ui?.visibility
  if (Array.isArray(declared)) {
    visibility = declared.filter((v): v is ToolVisibility => v === 'model' || v === 'app')
    for (const unknown of declared.filter((v) => v !== 'model' && v !== 'app')) {
      warnings.push(`tool ${name} lists an unknown visibility ${JSON.stringify(unknown)}, ignored`)
    }
  } else if (declared !== undefined) {
    warnings.push(
      `tool ${name} has a _meta.ui.visibility that is not a list; using ["model","app"]`,
    )
  }

  let resourceUri: string | null = null
  const candidate = ui?.resourceUri ?? meta?.[RESOURCE_URI_META_KEY]
  if (candidate !== undefined) {
    if (typeof candidate === 'string' && /^ui:\/\/\S+$/.test(candidate)) {
      resourceUri = candidate
    } else {
      const shown =
        typeof candidate === 'string' ? JSON.stringify(candidate.slice(0, 200)) : 'a value'
      warnings.push(
        `tool ${name} declares ${shown} as its App resource, which is not a ui:// URI; the tool works without its App`,
      )
    }
  }
  return { resourceUri, visibility, warnings }
}
