// What a caller most likely meant by a tool name that names no tool: the qualified names of the
// tools a server lists under that very name (a bare `echo`), else the names a typo away from it.

import { distance } from 'fastest-levenshtein'

/** At most this many names are suggested. */
const MOST = 3

/**
 * The names to suggest for `asked` among `tools` (qualified name and the server's own name), best
 * first; empty when nothing is close.
 */
export function suggestTools(
  asked: string,
  tools: ReadonlyArray<{ name: string; tool: string }>,
): string[] {
  const same = tools.filter((entry) => entry.tool === asked).map((entry) => entry.name)
  if (same.length > 0) return same.slice(0, MOST)
  // A typo: a few edits, fewer for short names, never most of the name.
  const most = Math.min(3, Math.max(1, Math.floor(asked.length / 4)))
  return tools
    .map((entry) => ({ name: entry.name, edits: distance(asked, entry.name) }))
    .filter((candidate) => candidate.edits <= most)
    .sort((a, b) => a.edits - b.edits || a.name.localeCompare(b.name))
    .slice(0, MOST)
    .map((candidate) => candidate.name)
}

/** ` (did you mean a, b or c?)`, or nothing when there is nothing to suggest. */
export function didYouMean(names: readonly string[]): string {
  if (names.length === 0) return ''
  const listed =
    names.length === 1
      ? names[0]
      : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1] as string}`
  return ` (did you mean ${listed}?)`
}
