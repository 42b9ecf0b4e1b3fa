// Whether a tool may run as an MCP task, read from its definition and its server: a 2025-11-25
// tool says so in `execution.taskSupport`; a server that declares the Tasks extension
// (`io.modelcontextprotocol/tasks`) says it for every tool it does not mark otherwise, as the
// 2026-07-28 list carries no `execution`. What the registry shows, the connection uses to choose
// how to call a tool, and the gateway uses to decide whether a call may become a task.

import type { ClientCapabilities, ServerCapabilities, Tool } from '@modelcontextprotocol/client'

export type TaskSupport = 'optional' | 'required'

/** The Tasks extension's id under `capabilities.extensions`. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks'

/**
 * Whether capabilities declare the Tasks extension: a server's (its tools may run as tasks) or a
 * client's (it follows tasks).
 */
export function declaresTasksExtension(
  capabilities: ServerCapabilities | ClientCapabilities | undefined,
): boolean {
  const extensions = (capabilities as { extensions?: Record<string, unknown> } | undefined)
    ?.extensions
  return typeof extensions === 'object' && extensions !== null && TASKS_EXTENSION in extensions
}

/**
 * The tool's task support; null when it never runs as a task. `serverTasks`: its server declares
 * the Tasks extension, so a tool without `execution` may run as one.
 */
export function taskSupportOf(tool: Tool, serverTasks = false): TaskSupport | null {
  const support = (tool as { execution?: { taskSupport?: unknown } }).execution?.taskSupport
  if (support === 'optional' || support === 'required') return support
  return serverTasks && support === undefined ? 'optional' : null
}
