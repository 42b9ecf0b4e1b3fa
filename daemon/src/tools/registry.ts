// The tool registry: every ready server's tools under qualified names, filtered by each server's
// includeTools/excludeTools (exclude wins), with annotations and App resource URIs kept.

import type { Tool } from '@modelcontextprotocol/client'
import type { ServerConfig } from '../config/types.js'
import type { ToolAnnotations, ToolInfo } from '../protocol/index.js'
import { qualifyNames } from './qualified-names.js'

export interface ToolSource {
  config: ServerConfig
  tools: readonly Tool[]
}

export interface RegistryEntry extends ToolInfo {
  /** The tool exactly as the server listed it. */
  definition: Tool
}

export function isToolAllowed(config: ServerConfig, tool: string): boolean {
  if (config.excludeTools?.includes(tool)) return false
  return config.includeTools === undefined || config.includeTools.includes(tool)
}

/** The `ui://` resource of a tool's App, from `_meta.ui.resourceUri` or the older flat key. */
export function uiResourceUri(tool: Tool): string | null {
  const meta = tool._meta as Record<string, unknown> | undefined
  const nested = (meta?.ui as { resourceUri?: unknown } | undefined)?.resourceUri
  const candidate = nested ?? meta?.['ui/resourceUri']
  return typeof candidate === 'string' && candidate.startsWith('ui://') ? candidate : null
}

function annotationsOf(tool: Tool): ToolAnnotations {
  const source = (tool.annotations ?? {}) as Record<string, unknown>
  const out: ToolAnnotations = {}
  for (const key of [
    'readOnlyHint',
    'destructiveHint',
    'idempotentHint',
    'openWorldHint',
  ] as const) {
    if (typeof source[key] === 'boolean') out[key] = source[key]
  }
  if (typeof source.title === 'string') out.title = source.title
  return out
}

export function buildRegistry(sources: readonly ToolSource[]): RegistryEntry[] {
  const picked = sources.flatMap((source) => {
    // A server that lists one name twice gets one entry: the first definition.
    const seen = new Set<string>()
    return source.tools
      .filter((tool) => !seen.has(tool.name) && seen.add(tool.name))
      .filter((tool) => isToolAllowed(source.config, tool.name))
      .map((tool) => ({ server: source.config.name, tool }))
  })
  const names = qualifyNames(picked.map(({ server, tool }) => ({ server, tool: tool.name })))
  return picked.map(({ server, tool }, i) => ({
    name: names[i] as string,
    server,
    tool: tool.name,
    title: tool.title ?? null,
    description: tool.description ?? null,
    inputSchema: tool.inputSchema as Record<string, unknown>,
    annotations: annotationsOf(tool),
    uiResourceUri: uiResourceUri(tool),
    definition: tool,
  }))
}

export function toToolInfo(entry: RegistryEntry): ToolInfo {
  const { definition: _definition, ...info } = entry
  return info
}
