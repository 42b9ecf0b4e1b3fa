// The tool registry: every ready server's tools under qualified names, filtered by each server's
// includeTools/excludeTools (exclude wins), with annotations, App resource URIs (and why an App
// cannot be shown), visibility, task support (and why a tool cannot be called) and the
// fingerprints a confirmation grant binds to.

import { createHash } from 'node:crypto'
import type { Tool } from '@modelcontextprotocol/client'
import { readToolUi, type ToolVisibility } from '../apps/tool-ui.js'
import { canonicalJson } from '../config/fingerprint.js'
import type { ServerConfig } from '../config/types.js'
import type { HiddenTool, ToolAnnotations, ToolInfo } from '../protocol/index.js'
import { taskSupportOf } from './task-support.js'
import { qualifyNames } from './qualified-names.js'

export interface ToolSource {
  config: ServerConfig
  /** The connection fingerprint of the server the tools were listed by. */
  fingerprint: string
  tools: readonly Tool[]
  /** Why the App at a `ui://` URI cannot be shown, from its latest check; null when it can. */
  appNotShown: (uri: string) => string | null
  /** Why tools that need a task cannot be called on this connection; null when they can. */
  taskBlocker: string | null
  /** The server declares the Tasks extension: its tools without `execution` may run as tasks. */
  serverTasks?: boolean
}

export interface RegistryEntry extends ToolInfo {
  /** The tool exactly as the server listed it. */
  definition: Tool
  /** Who may call it; without `model` it is offered to neither models nor the CLI. */
  visibility: ToolVisibility[]
  /** The server's connection fingerprint when the tool was listed. */
  serverFingerprint: string
  /** The server's settings mark it trusted: its calls need no confirmation. */
  serverTrusted: boolean
  /** See `toolFingerprint`. */
  toolFingerprint: string
}

/** A hash of what a tool is: its name, input schema and annotations, as the server listed them. */
export function toolFingerprint(tool: Tool): string {
  const shape = { name: tool.name, inputSchema: tool.inputSchema, annotations: tool.annotations }
  return createHash('sha256').update(canonicalJson(shape)).digest('hex')
}

export function isToolAllowed(config: ServerConfig, tool: string): boolean {
  if (config.excludeTools?.includes(tool)) return false
  return config.includeTools === undefined || config.includeTools.includes(tool)
}

/**
 * The tools a server lists that models and the CLI are not offered, each with why: left out by
 * the server's `includeTools`/`excludeTools`, or meant for its MCP App only. `entries` are the
 * server's registry entries.
 */
export function hiddenTools(
  config: ServerConfig,
  tools: readonly Tool[],
  entries: readonly RegistryEntry[],
): HiddenTool[] {
  const filtered = tools.flatMap((tool): HiddenTool[] => {
    if (config.excludeTools?.includes(tool.name))
      return [{ tool: tool.name, reason: 'left out by excludeTools in its settings' }]
    if (!isToolAllowed(config, tool.name))
      return [{ tool: tool.name, reason: 'not in includeTools in its settings' }]
    return []
  })
  const appOnly = entries
    .filter((entry) => !isModelVisible(entry))
    .map((entry) => ({
      tool: entry.tool,
      reason: `for its MCP App only (visibility ${JSON.stringify(entry.visibility)})`,
    }))
  return [...filtered, ...appOnly]
}

/** Whether models and the CLI may see and call the tool. */
export function isModelVisible(entry: RegistryEntry): boolean {
  return entry.visibility.includes('model')
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
      .map((tool) => ({
        server: source.config.name,
        trusted: source.config.trust === true,
        fingerprint: source.fingerprint,
        tool,
        appNotShown: source.appNotShown,
        taskBlocker: source.taskBlocker,
        serverTasks: source.serverTasks === true,
      }))
  })
  const names = qualifyNames(picked.map(({ server, tool }) => ({ server, tool: tool.name })))
  return picked.map(
    ({ server, trusted, fingerprint, tool, appNotShown, taskBlocker, serverTasks }, i) => {
      const ui = readToolUi(tool)
      const taskSupport = taskSupportOf(tool, serverTasks)
      return {
        name: names[i] as string,
        server,
        tool: tool.name,
        title: tool.title ?? null,
        description: tool.description ?? null,
        inputSchema: tool.inputSchema as Record<string, unknown>,
        annotations: annotationsOf(tool),
        uiResourceUri: ui.resourceUri,
        appNotShown: ui.resourceUri === null ? null : appNotShown(ui.resourceUri),
        taskSupport,
        notCallable: taskSupport === 'required' ? taskBlocker : null,
        definition: tool,
        visibility: ui.visibility,
        serverFingerprint: fingerprint,
        serverTrusted: trusted,
        toolFingerprint: toolFingerprint(tool),
      }
    },
  )
}

export function toToolInfo(entry: RegistryEntry): ToolInfo {
  const {
    definition: _definition,
    visibility: _visibility,
    serverFingerprint: _server,
    serverTrusted: _trusted,
    toolFingerprint: _tool,
    ...info
  } = entry
  return info
}
