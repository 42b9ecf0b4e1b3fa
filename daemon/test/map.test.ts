// The module map in docs/architecture.md names every module of daemon/src, so the map a newcomer
// reads first cannot fall behind the code.

import { readdir, readFile } from 'node:fs/promises'
import { basename, extname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../src', import.meta.url))
const doc = fileURLToPath(new URL('../../docs/architecture.md', import.meta.url))

async function modules(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true })
  const nested = await Promise.all(
    entries.map(async (entry) => {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) return modules(path)
      if (!/\.tsx?$/.test(entry.name) || entry.name.includes('.test.')) return []
      return [path]
    }),
  )
  return nested.flat()
}

describe('the architecture map', () => {
  it('names every module of daemon/src', async () => {
    const text = await readFile(doc, 'utf8')
    const map = text.slice(text.indexOf('## Modules'), text.indexOf('## Start-up'))
    const files = await modules(root)
    expect(files.length).toBeGreaterThan(100)
    const missing = files
      .map((file) => basename(file, extname(file)))
      .filter((name) => !map.includes(`\`${name}\``) && !map.includes(`\`${name}.ts\``))
    expect(missing).toEqual([])
  })
})
