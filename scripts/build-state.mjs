// Whether the parts of Ferry that starting it needs are built and newer than what they are built
// from: the daemon (its bundle, which holds its dependencies) and the WebShell. A part counts as
// stale when its output is missing or any of its inputs (its sources, its package and build
// settings, the lockfile) changed after the output was written.

import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'

/** Each part: the file its build writes last, and what it is built from. */
export const PARTS = [
  {
    name: 'daemon',
    output: 'daemon/dist/bundle/ferry.js',
    inputs: [
      'daemon/src',
      'daemon/package.json',
      'daemon/rolldown.config.mjs',
      'daemon/tsconfig.build.json',
      'tsconfig.base.json',
      'pnpm-lock.yaml',
    ],
  },
  {
    name: 'WebShell',
    output: 'webshell/dist/index.html',
    inputs: [
      'webshell/src',
      'webshell/index.html',
      'webshell/package.json',
      'webshell/vite.config.ts',
      'daemon/src/protocol',
      'pnpm-lock.yaml',
    ],
  },
]

/** The newest modification time under `path` (a file or a folder), or 0 when it does not exist. */
async function newest(path) {
  let info
  try {
    info = await stat(path)
  } catch {
    return 0
  }
  if (!info.isDirectory()) return info.mtimeMs
  let latest = info.mtimeMs
  for (const entry of await readdir(path, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue
    latest = Math.max(latest, await newest(join(path, entry.name)))
  }
  return latest
}

/** Why each stale part needs building, e.g. `daemon: not built`; empty when all are fresh. */
export async function staleBuilds(root, parts = PARTS) {
  const reasons = []
  for (const part of parts) {
    const built = await newest(join(root, part.output))
    if (built === 0) {
      reasons.push(`${part.name}: not built`)
      continue
    }
    for (const input of part.inputs) {
      if ((await newest(join(root, input))) > built) {
        reasons.push(`${part.name}: ${input} changed since it was built`)
        break
      }
    }
  }
  return reasons
}
