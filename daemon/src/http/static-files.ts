// The built WebShell, read once at start-up into a fixed table: request paths are looked up,
// never joined onto the file system, so there is nothing to traverse.

import { readdir, readFile } from 'node:fs/promises'
import { extname, join, relative, sep } from 'node:path'

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
}

export interface StaticFile {
  body: Uint8Array
  contentType: string
}

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => [])
  const files = await Promise.all(
    entries
      .filter((entry) => !entry.name.startsWith('.'))
      .map((entry) => {
        const path = join(dir, entry.name)
        return entry.isDirectory() ? walk(path) : Promise.resolve(entry.isFile() ? [path] : [])
      }),
  )
  return files.flat()
}

export async function loadStaticFiles(root: string): Promise<Map<string, StaticFile>> {
  const table = new Map<string, StaticFile>()
  for (const path of await walk(root)) {
    const type = contentTypes[extname(path)]
    if (type === undefined) continue
    const urlPath = `/${relative(root, path).split(sep).join('/')}`
    table.set(urlPath, { body: await readFile(path), contentType: type })
  }
  const index = table.get('/index.html')
  if (index !== undefined) table.set('/', index)
  return table
}
