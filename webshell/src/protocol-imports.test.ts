// The page's bundle takes no value from a protocol module that loads zod: such imports must be
// `import type`, or name a browser-safe module (one without zod) directly.

import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const SOURCE = dirname(fileURLToPath(import.meta.url))

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.tsx?$/u.test(entry.name) && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

/** Whether the protocol module at `path` (a .js specifier) loads zod, directly or by `export *`. */
function loadsZod(path: string, seen = new Set<string>()): boolean {
  const file = path.replace(/\.js$/u, '.ts')
  if (seen.has(file)) return false
  seen.add(file)
  const text = readFileSync(file, 'utf8')
  if (/^import (?!type )[^;]*from 'zod'/mu.test(text)) return true
  return [...text.matchAll(/^export \* from '(\.[^']+)'/gmu)].some((match) =>
    loadsZod(resolve(dirname(file), match[1] ?? ''), seen),
  )
}

describe('the WebShell’s imports from the protocol', () => {
  it('take values only from protocol modules that leave zod out', () => {
    const offending: string[] = []
    for (const file of sourceFiles(SOURCE)) {
      const text = readFileSync(file, 'utf8')
      for (const match of text.matchAll(
        /^import (type )?(?:\{[^}]*\}|[\w$*, ]+) from '(\.[^']*daemon\/src\/protocol\/[^']+)'/gmu,
      )) {
        if (match[1] !== undefined) continue
        const target = resolve(dirname(file), match[2] ?? '')
        if (loadsZod(target)) offending.push(`${file.slice(SOURCE.length + 1)} → ${match[2]}`)
      }
    }
    expect(offending).toEqual([])
  })
})
