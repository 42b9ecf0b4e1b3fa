// The WebShell's first load: the JavaScript `index.html` loads up front (its scripts, their
// preloads and everything those import statically) stays within 60 KB gzip, and holds no zod,
// which would mean a value, not a type, was imported from the daemon's protocol index.

import { readFile } from 'node:fs/promises'
import { join, posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'

const DIST = fileURLToPath(new URL('../../webshell/dist', import.meta.url))
const LIMIT_KB = 60

/** The initial chunks, as paths under dist/: what loads before any dynamic import runs. */
async function initialChunks(): Promise<Map<string, Buffer>> {
  const html = await readFile(join(DIST, 'index.html'), 'utf8')
  const queue = [
    ...html.matchAll(/<script[^>]*\bsrc="\/?([^"]+\.js)"/g),
    ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="\/?([^"]+\.js)"/g),
  ].map((match) => match[1] as string)
  const chunks = new Map<string, Buffer>()
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (chunks.has(file)) continue
    const body = await readFile(join(DIST, file))
    chunks.set(file, body)
    // Static imports only: `import(…)` is what loads later.
    for (const match of body
      .toString('utf8')
      .matchAll(/\bimport\s*(?:[^()'"`]*?from\s*)?["'`](\.{1,2}\/[^"'`]+\.js)["'`]/g)) {
      queue.push(posix.join(posix.dirname(file), match[1] as string))
    }
  }
  return chunks
}

describe('the WebShell bundle', () => {
  it('loads at most 60 KB of gzipped JavaScript up front, and no zod', async () => {
    const chunks = await initialChunks()
    expect(chunks.size).toBeGreaterThan(0)
    let gzipBytes = 0
    for (const [file, body] of chunks) {
      gzipBytes += gzipSync(body, { level: 9 }).length
      expect(body.includes('ZodError'), `${file} holds zod`).toBe(false)
    }
    const kb = gzipBytes / 1024
    expect(
      kb,
      `initial JavaScript is ${kb.toFixed(1)} KB gzip (${[...chunks.keys()].join(', ')})`,
    ).toBeLessThanOrEqual(LIMIT_KB)
  })
})
