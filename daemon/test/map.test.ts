// docs/architecture.md is the map a newcomer reads first, and docs/internals.md its detail; these
// checks keep both from falling behind the code: every folder has its line with an entry file that
// exists, every file the map names exists, every folder and top-level file of daemon/src is in a
// layer (which lint enforces), and the internals name every module.

import { existsSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { basename, extname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const repo = fileURLToPath(new URL('../../', import.meta.url))
const daemonSrc = join(repo, 'daemon', 'src')
const webshellSrc = join(repo, 'webshell', 'src')

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

async function folders(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true })
  return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name)
}

function section(text: string, heading: string): string {
  const start = text.indexOf(`\n## ${heading}`)
  expect(start, `a "## ${heading}" section`).toBeGreaterThan(-1)
  const end = text.indexOf('\n## ', start + 1)
  return text.slice(start, end === -1 ? undefined : end)
}

describe('the architecture map', () => {
  it('gives every folder of the daemon and the WebShell a line with an entry file that exists', async () => {
    const map = section(await readFile(join(repo, 'docs', 'architecture.md'), 'utf8'), 'Folders')
    const split = map.indexOf('The WebShell (`webshell/src`')
    expect(split).toBeGreaterThan(-1)
    for (const [root, names, lines] of [
      [daemonSrc, await folders(daemonSrc), map.slice(0, split)],
      [webshellSrc, await folders(webshellSrc), map.slice(split)],
    ] as const) {
      for (const name of names) {
        const line = new RegExp(`\\*\\*\`${name}/\`\\*\\*\\s+\\(\`([^\`]+)\`\\)`).exec(lines)
        expect(line, `a line for ${name}/`).not.toBeNull()
        const entry = line?.[1] ?? ''
        expect(existsSync(join(root, name, entry)), `${name}/${entry}`).toBe(true)
      }
    }
  })

  it('names only files that exist', async () => {
    const text = await readFile(join(repo, 'docs', 'architecture.md'), 'utf8')
    const named = [...text.matchAll(/`((?:[\w-]+\/)+[\w.-]+\.(?:tsx?|html|cjs))`/g)].map(
      (match) => match[1] ?? '',
    )
    expect(named.length).toBeGreaterThan(30)
    const missing = named.filter(
      (path) =>
        ![repo, daemonSrc, webshellSrc, join(repo, 'daemon')].some((root) =>
          existsSync(join(root, path)),
        ),
    )
    expect(missing).toEqual([])
  })

  it('puts every folder and top-level module of daemon/src in a layer', async () => {
    const layers = section(await readFile(join(repo, 'docs', 'architecture.md'), 'utf8'), 'Layers')
    const listed = new Set(
      layers
        .split('\n')
        .filter((line) => /^\d+\. /.test(line))
        .flatMap((line) => [...line.matchAll(/`([a-z-]+)`/g)].map((match) => match[1])),
    )
    const entries = await readdir(daemonSrc, { withFileTypes: true })
    const parts = entries
      .filter((entry) => entry.isDirectory() || /^[a-z-]+\.ts$/.test(entry.name))
      .map((entry) => basename(entry.name, '.ts'))
    expect(parts.filter((part) => !listed.has(part))).toEqual([])
  })

  it('has its detail in the internals, which name every module of daemon/src', async () => {
    const text = await readFile(join(repo, 'docs', 'internals.md'), 'utf8')
    const list = section(text, 'Modules')
    const files = await modules(daemonSrc)
    expect(files.length).toBeGreaterThan(100)
    const missing = files
      .map((file) => basename(file, extname(file)))
      .filter((name) => !list.includes(`\`${name}\``) && !list.includes(`\`${name}.ts\``))
    expect(missing).toEqual([])
  })
})
