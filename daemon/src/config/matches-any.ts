// Server-name globs for `mcp.allowed` / `mcp.excluded`: whole-name `*` / `?` matching via picomatch.

import picomatch from 'picomatch'

// Server names are not paths: swap `/` for a private-use character so `*` and `?` can cross it.
const SLASH = '\uE000'

/**
 * Compiled matchers by their patterns: the same few sets (settings, tokens) are matched on every
 * call, and compiling one costs far more than matching. Emptied if it ever grows past the limit.
 */
const compiled = new Map<string, (name: string) => boolean>()
const MAX_COMPILED = 256

function matcherOf(usable: string[]): (name: string) => boolean {
  const key = usable.join('\0')
  let isMatch = compiled.get(key)
  if (isMatch === undefined) {
    if (compiled.size >= MAX_COMPILED) compiled.clear()
    isMatch = picomatch(usable, { dot: true, nonegate: true, windows: false })
    compiled.set(key, isMatch)
  }
  return isMatch
}

export function matchesAny(name: string, patterns: string[]): boolean {
  const usable = patterns.filter((pattern) => pattern !== '').map((p) => p.replaceAll('/', SLASH))
  if (usable.length === 0) return false
  return matcherOf(usable)(name.replaceAll('/', SLASH))
}
