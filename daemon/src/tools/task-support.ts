// Whether a tool runs as a 2025-11-25 task (`execution.taskSupport`), read from its definition:
// what the registry shows and the connection uses to choose how to call it.

import type { Tool } from '@modelcontextprotocol/client'

export type TaskSupport = 'optional' | 'required'

/** The tool's declared task support; null when it never runs as a task. */
export function taskSupportOf(tool: Tool): TaskSupport | null {
  const support = (tool as { execution?: { taskSupport?: unknown } }).execution?.taskSupport
  return support === 'optional' || support === 'required' ? support : null
}
