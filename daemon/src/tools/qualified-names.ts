// Qualified tool names: `mcp_{server}_{tool}`, sanitised to [A-Za-z0-9_-], at most 64 characters.
// Collisions and shortened names get a suffix derived from the (server, tool) pair alone, so a name
// never depends on which other servers happen to be connected, and no server can shadow another.

import { createHash } from 'node:crypto'

export const MAX_TOOL_NAME_LENGTH = 64
const SUFFIX_LENGTH = 8

export interface ToolRef {
  server: string
  tool: string
}

function sanitize(raw: string): string {
  return raw.replace(/[^A-Za-z0-9_-]/g, '_')
}

function pairHash(ref: ToolRef): string {
  return createHash('sha256')
    .update(JSON.stringify([ref.server, ref.tool]))
    .digest('hex')
    .slice(0, SUFFIX_LENGTH)
}

function withSuffix(base: string, ref: ToolRef): string {
  return `${base.slice(0, MAX_TOOL_NAME_LENGTH - SUFFIX_LENGTH - 1)}_${pairHash(ref)}`
}

/** The name a tool gets when nothing collides with it. */
export function plainQualifiedName(ref: ToolRef): string {
  const base = sanitize(`mcp_${ref.server}_${ref.tool}`)
  return base.length <= MAX_TOOL_NAME_LENGTH ? base : withSuffix(base, ref)
}

/**
 * Names for a whole set of tools. Every member of a colliding group is renamed with its own pair
 * hash, so the result is the same whatever order the tools arrive in.
 */
export function qualifyNames(refs: readonly ToolRef[]): string[] {
  const plain = refs.map(plainQualifiedName)
  const counts = new Map<string, number>()
  for (const name of plain) counts.set(name, (counts.get(name) ?? 0) + 1)
  const names = plain.map((name, i) => {
    const ref = refs[i] as ToolRef
    return (counts.get(name) ?? 0) > 1
      ? withSuffix(sanitize(`mcp_${ref.server}_${ref.tool}`), ref)
      : name
  })
  // A renamed entry could in principle land on another entry's plain name; the pair hash makes
  // that a 32-bit accident, and exact duplicates (same server and tool twice) stay identical.
  return names
}
