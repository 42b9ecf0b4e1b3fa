// Server-name globs for `mcp.allowed` / `mcp.excluded`: whole-name `*` / `?` matching via picomatch.

import picomatch from 'picomatch'

// Server names are not paths: swap `/` for a private-use character so `*` and `?` can cross it.
const SLASH = '\uE000'

export function matchesAny(name: string, patterns: string[]): boolean {
  const usable = patterns.filter((pattern) => pattern !== '').map((p) => p.replaceAll('/', SLASH))
  if (usable.length === 0) return false
  const isMatch = picomatch(usable, { dot: true, nonegate: true, windows: false })
  return isMatch(name.replaceAll('/', SLASH))
}
